/* A fake cublasLt64_11.dll. */
__declspec(dllexport) int cublasLtCreate(void** handle) {
  *handle = 0;
  return 0;
}
__declspec(dllexport) unsigned long cublasLtGetVersion(void) { return 110000; }
