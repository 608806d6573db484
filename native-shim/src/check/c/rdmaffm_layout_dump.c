/*
 * Prints the layout table of a built shim, one "kind name value" line per entry, after an "abi N" line.
 * It dlopens the shim like the JVM does, so a cross-built shim can be checked under qemu-user on a build
 * host whose JVM cannot load it: the Java layouts are then held to this text (Aarch64LayoutTableTest).
 * usage: rdmaffm_layout_dump PATH_TO_SHIM   (exit 0 ok, 1 the shim could not be loaded or read, 2 usage)
 */
#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>

#include "../../main/c/rdmaffm_shim.h"

typedef const struct rdmaffm_layout_entry *(*table_fn)(int32_t *count);
typedef int (*abi_fn)(void);

static const char *kind_name(int32_t kind)
{
	switch (kind) {
	case RDMAFFM_SIZEOF:
		return "sizeof";
	case RDMAFFM_OFFSETOF:
		return "offsetof";
	case RDMAFFM_CONSTANT:
		return "constant";
	default:
		return NULL;
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s PATH_TO_SHIM\n", argv[0]);
		return 2;
	}
	void *shim = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (shim == NULL) {
		fprintf(stderr, "cannot load %s: %s\n", argv[1], dlerror());
		return 1;
	}
	table_fn table = (table_fn)dlsym(shim, "rdmaffm_layout_table");
	abi_fn abi = (abi_fn)dlsym(shim, "rdmaffm_shim_abi");
	if (table == NULL || abi == NULL) {
		fprintf(stderr, "%s exports no rdmaffm_layout_table or rdmaffm_shim_abi\n", argv[1]);
		return 1;
	}
	printf("abi %d\n", abi());
	int32_t count = 0;
	const struct rdmaffm_layout_entry *entries = table(&count);
	for (int32_t i = 0; i < count; i++) {
		const char *kind = kind_name(entries[i].kind);
		if (kind == NULL) {
			fprintf(stderr, "unknown entry kind %" PRId32 " for %s\n", entries[i].kind, entries[i].name);
			return 1;
		}
		printf("%s %s %" PRId64 "\n", kind, entries[i].name, entries[i].value);
	}
	return fflush(stdout) == 0 ? 0 : 1;
}
