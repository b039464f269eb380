// The other translation unit of kernel_program_rdc (separable compilation): a __device__ function
// that kernel_program.cu calls, resolved only by the device link.
__device__ int twice(int v) { return 2 * v; }
