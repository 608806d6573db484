/**
 * GPU memory for RDMA through the CUDA driver API: libcuda.so.1 found at run time (nothing CUDA is needed to
 * build), its entry points bound through {@code cuGetProcAddress} at pinned ABI versions. Allocate with
 * {@link io.rdmaffm.verbs.cuda.CudaDevice#allocate}, register the buffer's segment with ibv_reg_mr (peer memory)
 * or its {@link io.rdmaffm.verbs.cuda.CudaBuffer#exportDmaBuf() dma-buf} with ibv_reg_dmabuf_mr.
 */
package io.rdmaffm.verbs.cuda;
