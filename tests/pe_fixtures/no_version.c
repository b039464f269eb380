/* A DLL built the ordinary way (with the C runtime) and without a version resource. */
#include <stdio.h>

__declspec(dllexport) int plain_function(const char* text) { return puts(text); }
