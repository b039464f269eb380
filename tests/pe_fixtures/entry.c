/* The entry point of the fixture DLLs built without the C runtime (-nostdlib). */
int __stdcall DllMainCRTStartup(void* module, unsigned reason, void* reserved) {
  (void)module;
  (void)reason;
  (void)reserved;
  return 1;
}
