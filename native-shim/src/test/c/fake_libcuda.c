/*
 * A stand-in for NVIDIA's libcuda.so.1, for tests only: never shipped, never on a library path unless a test
 * puts it there. It implements the CUDA driver entry points rdma-ffm binds over host memory, so "device
 * pointers" are ordinary host addresses that Soft-RoCE can register with ibv_reg_mr. Like the real driver it
 * hands out its entry points only through cuGetProcAddress (the functions are not exported), and only at or
 * above the ABI version each was introduced with: a binding that asks by name and pinned version is exercised.
 *
 * Set-up, read at cuInit (environment) or by fake_cuda_configure (in-process tests):
 *   FAKE_CUDA_DEVICES   GPUs it pretends to have (default 1); bus ids 0000:%02x:00.0 from 0x3b up
 *   FAKE_CUDA_MEMORY    bytes each GPU can hold (default 1 GiB)
 *   FAKE_CUDA_DRIVER    the driver version it reports, e.g. 11040 (default 12040); entry points newer than it
 *                       are not found, as with an old driver
 *   FAKE_CUDA_DMABUF    0: CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED reads 0 and exports fail (default 1)
 * A dma-buf export is a memfd of the range's size: a real fd a registration can be tried with (rxe refuses it).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

typedef int CUresult;
enum {
	SUCCESS = 0, INVALID_VALUE = 1, OUT_OF_MEMORY = 2, NOT_INITIALIZED = 3, NO_DEVICE = 100,
	INVALID_DEVICE = 101, INVALID_CONTEXT = 201, NOT_FOUND = 500, NOT_SUPPORTED = 801
};
enum { ATTR_INTEGRATED = 18, ATTR_PCI_BUS_ID = 33, ATTR_PCI_DEVICE_ID = 34, ATTR_PCI_DOMAIN_ID = 50,
	ATTR_GPU_DIRECT_RDMA_SUPPORTED = 116, ATTR_DMA_BUF_SUPPORTED = 124 };
enum { HANDLE_TYPE_DMA_BUF_FD = 1 };
enum { PROC_SUCCESS = 0, PROC_SYMBOL_NOT_FOUND = 1, PROC_VERSION_NOT_SUFFICIENT = 2 };

#define MAX_DEVICES 16
#define MAX_ALLOCS 1024

static struct {
	int initialized, devices, driver, dmabuf;
	uint64_t memory;
	uint64_t used[MAX_DEVICES];
	int retained[MAX_DEVICES];
	struct { uintptr_t ptr; size_t size; int device; } allocs[MAX_ALLOCS];
} st;

/* The current context is per thread, as the driver's is: a binding must set it on the thread that calls. */
static __thread int current = -1;
/* Two peers in one test JVM allocate concurrently. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static long env_or(const char *name, long fallback)
{
	const char *v = getenv(name);
	return v && *v ? strtol(v, NULL, 0) : fallback;
}

EXPORT void fake_cuda_configure(int devices, uint64_t memory, int driver, int dmabuf)
{
	st.devices = devices < MAX_DEVICES ? devices : MAX_DEVICES;
	st.memory = memory;
	st.driver = driver;
	st.dmabuf = dmabuf;
	st.initialized = 1;
}

static CUresult cu_init(unsigned flags)
{
	if (flags != 0)
		return INVALID_VALUE;
	if (!st.initialized)
		fake_cuda_configure((int)env_or("FAKE_CUDA_DEVICES", 1), (uint64_t)env_or("FAKE_CUDA_MEMORY", 1L << 30),
				(int)env_or("FAKE_CUDA_DRIVER", 12040), (int)env_or("FAKE_CUDA_DMABUF", 1));
	return st.devices > 0 ? SUCCESS : NO_DEVICE;
}

static CUresult cu_driver_get_version(int *v)
{
	if (!v)
		return INVALID_VALUE;
	*v = st.initialized ? st.driver : (int)env_or("FAKE_CUDA_DRIVER", 12040);
	return SUCCESS;
}

static CUresult cu_device_get_count(int *n)
{
	if (!st.initialized)
		return NOT_INITIALIZED;
	*n = st.devices;
	return SUCCESS;
}

static CUresult cu_device_get(int *dev, int ordinal)
{
	if (!st.initialized)
		return NOT_INITIALIZED;
	if (ordinal < 0 || ordinal >= st.devices)
		return INVALID_DEVICE;
	*dev = ordinal;
	return SUCCESS;
}

static CUresult cu_device_get_by_pci_bus_id(int *dev, const char *bus)
{
	unsigned domain = 0, b = 0, d = 0, f = 0;
	if (!st.initialized)
		return NOT_INITIALIZED;
	if (!bus || sscanf(bus, "%x:%x:%x.%x", &domain, &b, &d, &f) != 4)
		return INVALID_VALUE;
	for (int i = 0; i < st.devices; i++)
		if (domain == 0 && b == 0x3bu + (unsigned)i && d == 0 && f == 0) {
			*dev = i;
			return SUCCESS;
		}
	return INVALID_DEVICE;
}

static CUresult cu_device_get_name(char *name, int len, int dev)
{
	if (dev < 0 || dev >= st.devices)
		return INVALID_DEVICE;
	snprintf(name, (size_t)len, "Stand-in GPU %d (host memory)", dev);
	return SUCCESS;
}

static CUresult cu_device_get_attribute(int *value, int attr, int dev)
{
	if (dev < 0 || dev >= st.devices)
		return INVALID_DEVICE;
	switch (attr) {
	case ATTR_INTEGRATED: *value = 0; break;
	case ATTR_PCI_BUS_ID: *value = 0x3b + dev; break;
	case ATTR_PCI_DEVICE_ID: *value = 0; break;
	case ATTR_PCI_DOMAIN_ID: *value = 0; break;
	case ATTR_GPU_DIRECT_RDMA_SUPPORTED: *value = 1; break;
	case ATTR_DMA_BUF_SUPPORTED: *value = st.dmabuf; break;
	default: return INVALID_VALUE;
	}
	return SUCCESS;
}

static CUresult cu_primary_ctx_retain(void **ctx, int dev)
{
	if (dev < 0 || dev >= st.devices)
		return INVALID_DEVICE;
	__atomic_add_fetch(&st.retained[dev], 1, __ATOMIC_SEQ_CST);
	*ctx = (void *)(uintptr_t)(0x1000 + dev);
	return SUCCESS;
}

static CUresult cu_primary_ctx_release(int dev)
{
	if (dev < 0 || dev >= st.devices || __atomic_sub_fetch(&st.retained[dev], 1, __ATOMIC_SEQ_CST) < 0)
		return INVALID_CONTEXT;
	return SUCCESS;
}

static CUresult cu_ctx_set_current(void *ctx)
{
	uintptr_t c = (uintptr_t)ctx;
	if (c == 0) {
		current = -1;
		return SUCCESS;
	}
	if (c < 0x1000 || c >= 0x1000 + (uintptr_t)st.devices || st.retained[c - 0x1000] == 0)
		return INVALID_CONTEXT;
	current = (int)(c - 0x1000);
	return SUCCESS;
}

static CUresult cu_ctx_synchronize(void)
{
	return current < 0 ? INVALID_CONTEXT : SUCCESS;
}

static CUresult cu_mem_alloc_locked(uintptr_t *dptr, size_t size);

static CUresult cu_mem_alloc(uintptr_t *dptr, size_t size)
{
	CUresult rc;
	pthread_mutex_lock(&lock);
	rc = cu_mem_alloc_locked(dptr, size);
	pthread_mutex_unlock(&lock);
	return rc;
}

static CUresult cu_mem_alloc_locked(uintptr_t *dptr, size_t size)
{
	void *p;
	if (current < 0)
		return INVALID_CONTEXT;
	if (size == 0)
		return INVALID_VALUE;
	if (size > st.memory - st.used[current])
		return OUT_OF_MEMORY;
	for (int i = 0; i < MAX_ALLOCS; i++)
		if (st.allocs[i].ptr == 0) {
			if (posix_memalign(&p, 65536, size) != 0)
				return OUT_OF_MEMORY;
			memset(p, 0, size);
			st.allocs[i].ptr = (uintptr_t)p;
			st.allocs[i].size = size;
			st.allocs[i].device = current;
			st.used[current] += size;
			*dptr = (uintptr_t)p;
			return SUCCESS;
		}
	return OUT_OF_MEMORY;
}

/* The allocation holding [ptr, ptr + size), or -1. */
static int find(uintptr_t ptr, size_t size)
{
	/* reads race only with a free of the same range, which the binding never does during a copy */
	for (int i = 0; i < MAX_ALLOCS; i++)
		if (st.allocs[i].ptr && ptr >= st.allocs[i].ptr && size <= st.allocs[i].size
				&& ptr - st.allocs[i].ptr <= st.allocs[i].size - size)
			return i;
	return -1;
}

static CUresult cu_mem_free(uintptr_t dptr)
{
	int i;
	pthread_mutex_lock(&lock);
	i = find(dptr, 0);
	if (i < 0 || st.allocs[i].ptr != dptr) {
		pthread_mutex_unlock(&lock);
		return INVALID_VALUE;
	}
	st.used[st.allocs[i].device] -= st.allocs[i].size;
	free((void *)dptr);
	st.allocs[i].ptr = 0;
	pthread_mutex_unlock(&lock);
	return SUCCESS;
}

static CUresult cu_memcpy_htod(uintptr_t dst, const void *src, size_t n)
{
	if (find(dst, n) < 0)
		return INVALID_VALUE;
	memcpy((void *)dst, src, n);
	return SUCCESS;
}

static CUresult cu_memcpy_dtoh(void *dst, uintptr_t src, size_t n)
{
	if (find(src, n) < 0)
		return INVALID_VALUE;
	memcpy(dst, (const void *)src, n);
	return SUCCESS;
}

static CUresult cu_pointer_set_attribute(const void *value, int attr, uintptr_t ptr)
{
	(void)value;
	(void)attr;
	return find(ptr, 0) < 0 ? INVALID_VALUE : SUCCESS;
}

static CUresult cu_mem_get_handle_for_address_range(void *handle, uintptr_t ptr, size_t size, int type,
		unsigned long long flags)
{
	long page = sysconf(_SC_PAGESIZE);
	int fd;
	if (!st.dmabuf)
		return NOT_SUPPORTED;
	if (type != HANDLE_TYPE_DMA_BUF_FD || flags != 0 || ptr % (uintptr_t)page || size % (size_t)page
			|| find(ptr, size) < 0)
		return INVALID_VALUE;
	fd = memfd_create("fake-cuda-dmabuf", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)size) != 0)
		return OUT_OF_MEMORY;
	*(int *)handle = fd;
	return SUCCESS;
}

static CUresult cu_get_error_name(CUresult e, const char **name)
{
	switch (e) {
	case SUCCESS: *name = "CUDA_SUCCESS"; break;
	case INVALID_VALUE: *name = "CUDA_ERROR_INVALID_VALUE"; break;
	case OUT_OF_MEMORY: *name = "CUDA_ERROR_OUT_OF_MEMORY"; break;
	case NOT_INITIALIZED: *name = "CUDA_ERROR_NOT_INITIALIZED"; break;
	case NO_DEVICE: *name = "CUDA_ERROR_NO_DEVICE"; break;
	case INVALID_DEVICE: *name = "CUDA_ERROR_INVALID_DEVICE"; break;
	case INVALID_CONTEXT: *name = "CUDA_ERROR_INVALID_CONTEXT"; break;
	case NOT_FOUND: *name = "CUDA_ERROR_NOT_FOUND"; break;
	case NOT_SUPPORTED: *name = "CUDA_ERROR_NOT_SUPPORTED"; break;
	default: *name = NULL; return INVALID_VALUE;
	}
	return SUCCESS;
}

/* Each entry point with the ABI version it first had in this form (the driver keeps older ones for older asks). */
static const struct entry {
	const char *name;
	int since;
	void *fn;
} entries[] = {
	{ "cuInit", 2000, (void *)cu_init },
	{ "cuDriverGetVersion", 2020, (void *)cu_driver_get_version },
	{ "cuDeviceGetCount", 2000, (void *)cu_device_get_count },
	{ "cuDeviceGet", 2000, (void *)cu_device_get },
	{ "cuDeviceGetByPCIBusId", 4010, (void *)cu_device_get_by_pci_bus_id },
	{ "cuDeviceGetName", 2000, (void *)cu_device_get_name },
	{ "cuDeviceGetAttribute", 2000, (void *)cu_device_get_attribute },
	{ "cuDevicePrimaryCtxRetain", 7000, (void *)cu_primary_ctx_retain },
	{ "cuDevicePrimaryCtxRelease", 11000, (void *)cu_primary_ctx_release },
	{ "cuCtxSetCurrent", 4000, (void *)cu_ctx_set_current },
	{ "cuCtxSynchronize", 2000, (void *)cu_ctx_synchronize },
	{ "cuMemAlloc", 3020, (void *)cu_mem_alloc },
	{ "cuMemFree", 3020, (void *)cu_mem_free },
	{ "cuMemcpyHtoD", 3020, (void *)cu_memcpy_htod },
	{ "cuMemcpyDtoH", 3020, (void *)cu_memcpy_dtoh },
	{ "cuPointerSetAttribute", 6000, (void *)cu_pointer_set_attribute },
	{ "cuMemGetHandleForAddressRange", 11070, (void *)cu_mem_get_handle_for_address_range },
	{ "cuGetErrorName", 6000, (void *)cu_get_error_name },
};

/* What the last lookup of each name asked for, so tests can check the binding pins its versions. */
static int asked[sizeof(entries) / sizeof(entries[0])];

EXPORT int fake_cuda_asked_version(const char *name)
{
	for (size_t i = 0; i < sizeof(entries) / sizeof(entries[0]); i++)
		if (strcmp(entries[i].name, name) == 0)
			return asked[i];
	return -1;
}

static int lookup(const char *symbol, void **fn, int version, int *status)
{
	int driver = st.initialized ? st.driver : (int)env_or("FAKE_CUDA_DRIVER", 12040);
	*fn = NULL;
	for (size_t i = 0; i < sizeof(entries) / sizeof(entries[0]); i++)
		if (strcmp(entries[i].name, symbol) == 0) {
			asked[i] = version;
			if (entries[i].since > driver) {
				*status = PROC_SYMBOL_NOT_FOUND;
				return NOT_FOUND;
			}
			if (version < entries[i].since) {
				*status = PROC_VERSION_NOT_SUFFICIENT;
				return NOT_FOUND;
			}
			*fn = entries[i].fn;
			*status = PROC_SUCCESS;
			return SUCCESS;
		}
	*status = PROC_SYMBOL_NOT_FOUND;
	return NOT_FOUND;
}

EXPORT CUresult cuGetProcAddress_v2(const char *symbol, void **fn, int version, uint64_t flags, int *status)
{
	int ignored;
	if (!symbol || !fn || flags != 0)
		return INVALID_VALUE;
	return lookup(symbol, fn, version, status ? status : &ignored);
}

EXPORT CUresult cuGetProcAddress(const char *symbol, void **fn, int version, uint64_t flags)
{
	return cuGetProcAddress_v2(symbol, fn, version, flags, NULL);
}
