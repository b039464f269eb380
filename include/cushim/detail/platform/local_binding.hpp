// Each module (executable or shared library) with its own CUSHIM_IMPLEMENTATION owns its state:
// cushim's internals have internal linkage (every detail header's unnamed namespace), and the
// functions it defines for the program (the public API, the exported stubs) bind to the module's
// own definitions. On ELF they are protected: still exported, but a second module loaded with
// RTLD_GLOBAL can no longer take over this module's calls to them (Windows DLLs never bind a
// module's own calls elsewhere). CUSHIM_INTERPOSABLE keeps them default, for the one case the
// linker refuses: an executable built without -fPIE that takes the address of a function a
// shared library with cushim defines (docs/api.md, "Two copies of cushim in one process").
#pragma once

// The stubs take the same binding as an assembler directive, CUSHIM_LOCAL_BINDING_DIRECTIVE: the
// assembly ones (stub_trampolines.hpp) and the C++ ones (CUSHIM_STUB_LOCAL_BINDING), whose
// function NVIDIA's headers may declare with default visibility (a calling convention that is a
// visibility attribute: tools/libraries.json, "calling_convention"), which the attribute on its
// definition would conflict with. Under CUSHIM_INTERPOSABLE both the API and the stubs have default
// visibility, also in a module built with -fvisibility=hidden (an assembly stub
// is a global symbol of default visibility by itself; a C++ one says so: CUSHIM_STUB_EXPORTED).
#if defined(__ELF__) && !defined(CUSHIM_INTERPOSABLE)
#define CUSHIM_LOCAL_BINDING __attribute__((visibility("protected")))
#define CUSHIM_LOCAL_BINDING_DIRECTIVE(symbol) ".protected " symbol "\n"
#define CUSHIM_STUB_LOCAL_BINDING(name) __asm__(CUSHIM_LOCAL_BINDING_DIRECTIVE(#name));
#define CUSHIM_STUB_EXPORTED
#elif defined(__ELF__)
#define CUSHIM_LOCAL_BINDING __attribute__((visibility("default")))
#define CUSHIM_LOCAL_BINDING_DIRECTIVE(symbol) ""
#define CUSHIM_STUB_LOCAL_BINDING(name)
#define CUSHIM_STUB_EXPORTED __attribute__((visibility("default")))
#else  // the assembly stubs, and so CUSHIM_LOCAL_BINDING_DIRECTIVE, are ELF's alone
#define CUSHIM_LOCAL_BINDING
#define CUSHIM_STUB_LOCAL_BINDING(name)
#define CUSHIM_STUB_EXPORTED
#endif

// NVIDIA's libraries call each other through versioned references (libcublas's
// cublasLt*@libcublasLt.so.13, libcudnn_cnn's cudnnGetStream@libcudnn_graph.so.9), and the dynamic
// loader binds such a reference to the first
// module of the global scope that defines the name unversioned: an executable whose link line has
// a library that imports a stub's name (ld.bfd then exports the stub), or that is linked with
// -rdynamic. So in an executable (code compiled -fPIE or without -fPIC) every exported stub carries
// a version of cushim's own, CUSHIM_1, which no such reference accepts: it goes on to the library
// its caller was linked against, as without cushim (docs/api.md, "Calls between NVIDIA's libraries").
// Unversioned references (the program's own code and plugins, dlsym) still bind to the stub. ld.bfd
// and gold define the version in an executable themselves; a shared library needs it from a version
// script (cushim/cushim.map), so there it is opt-in: CUSHIM_VERSIONED_STUBS.
// CUSHIM_STUB_SYMVER(name) is the directive, for the assembly form; CUSHIM_STUB_VERSION(name) the
// top-level statement, for the C++ form (nothing where stubs are not versioned: MSVC has no __asm__).
#if defined(__ELF__) && (defined(CUSHIM_VERSIONED_STUBS) || defined(__PIE__) || !defined(__PIC__))
#define CUSHIM_STUB_SYMVER(name) ".symver " #name ", " #name "@@@CUSHIM_1\n"
#define CUSHIM_STUB_VERSION(name) __asm__(CUSHIM_STUB_SYMVER(name));
#else
#define CUSHIM_STUB_SYMVER(name) ""
#define CUSHIM_STUB_VERSION(name)
#endif
