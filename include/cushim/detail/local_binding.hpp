// Each module (executable or shared library) with its own CUSHIM_IMPLEMENTATION owns its state:
// cushim's internals have internal linkage (every detail header's unnamed namespace), and the
// functions it defines for the program (the public API, the exported stubs) bind to the module's
// own definitions. On ELF they are protected: still exported, but a second module loaded with
// RTLD_GLOBAL can no longer take over this module's calls to them (Windows DLLs never bind a
// module's own calls elsewhere). CUSHIM_INTERPOSABLE keeps them default, for the one case the
// linker refuses: an executable built without -fPIE that takes the address of a function a
// shared library with cushim defines (docs/api.md, "Two copies of cushim in one process").
#pragma once

#if defined(__ELF__) && !defined(CUSHIM_INTERPOSABLE)
#define CUSHIM_LOCAL_BINDING __attribute__((visibility("protected")))
#else
#define CUSHIM_LOCAL_BINDING
#endif
