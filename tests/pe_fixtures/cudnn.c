/* A fake cudnn64_8.dll: two exports; cudnn_ops_infer64_8.dll is linked for delay-loading. */
#include <stddef.h>

int cudnnOpsInferVersionCheck(void);

__declspec(dllexport) size_t cudnnGetVersion(void) { return 8907; }
__declspec(dllexport) int cudnnCreate(void** handle) {
  *handle = 0;
  return cudnnOpsInferVersionCheck();
}
