/* A fake cudnn_ops_infer64_8.dll: imports from zlibwapi.dll (one by ordinal) and cublasLt64_11.dll. */
int zlibVersionNumber(void);
unsigned long crc32(unsigned long crc, const unsigned char* buf, unsigned len);
int zlibHidden(void);
int cublasLtCreate(void** handle);

__declspec(dllexport) int cudnnOpsInferVersionCheck(void) {
  void* handle;
  return zlibVersionNumber() + (int)crc32(0, 0, 0) + zlibHidden() + cublasLtCreate(&handle);
}
