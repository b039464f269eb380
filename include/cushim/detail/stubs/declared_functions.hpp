// The table lines of functions that the headers in use may or may not declare
// (docs/supported-headers.md, "Supported headers"): a release between two manifests that disagree
// on a function, or older than every manifest of its major. Such a line is
//   CUSHIM_API_DECLARED(library, group, ret, name, (params), (args), declared, arity)
// whose ret and params are the nearest manifest's, for people and for the guards' test; the
// stub is defined exactly when the headers declare the function `declared` (the name itself, or
// for a per-thread variant such as cudaMemcpy_ptds the function it is a variant of), and then
// with the prototype the headers give it. A prototype with another number of parameters than
// `arity` stops the build with a message that names the function and the headers' release.
//
// How the headers are asked, in C++17 (each step costs one or two template instantiations):
//  - `struct name;` at global scope: a function of the same name, declared before or after,
//    hides it, so `name` is then the function and otherwise this struct;
//  - address<name>() is the function's address, of the exact type the headers give it, or null
//    for the struct; prototype<> takes it apart (result and parameter types);
//  - the stub is declared `extern "C" inline` with those types before CUSHIM_DEFINE_CXX_STUB
//    (stub_resolvers.hpp: the C++ form on every platform) defines it. An inline function is emitted only where it is
//    odr-used, and keep<true, address>, an explicit instantiation, uses it only where the headers declare it. Where
//    they do not, the definition has placeholder types (absent<>), is never emitted and defines no symbol. So no type
//    the headers lack is ever spelled, and no declaration of theirs is contradicted.
// The stub is therefore a weak (COMDAT) symbol, which every linker resolves the program's calls
// to as to any other definition; the per-call cost is the same load and indirect jump.
#pragma once

#include <cstddef>
#include <type_traits>

namespace cushim {
namespace detail {
namespace declared {

// `name` names a function (the headers', or a stub already defined) or cushim's struct.
template <class not_a_function>
constexpr std::nullptr_t address() {
  return nullptr;
}
template <auto function>
constexpr auto address() {
  return function;
}

// The placeholder types of a function the headers do not declare: no header uses them.
template <std::size_t position>
struct absent {
  using type = absent;
};
using absent_result = absent<~std::size_t{0}>*;  // a pointer: a C function may return it (clang checks)

// A function the headers declare; another line's placeholder of the same name (a variant's line
// looks its base function up after the base's own line defined it) is not one of theirs.
template <class R, std::size_t n>
struct declared_prototype {
  static constexpr bool declared = !std::is_same<R, absent_result>::value;
  static constexpr std::size_t arity = n;
  using result = R;
};
template <class F>
struct absent_parameters;  // t0, t1, ...: absent<0>, absent<1>, ... (../api/declared_arities.inc)

// prototype<decltype(address<name>())>: result and parameter types t0, t1, ... of the headers'
// declaration; one specialization per number of parameters (../api/declared_arities.inc).
template <class F>
struct prototype : absent_parameters<F> {  // null: not declared
  static constexpr bool declared = false;
  static constexpr std::size_t arity = 0;
  using result = absent_result;
};
// An explicit instantiation of keep<true, the stub's address> odr-uses the stub, so that it is
// emitted; keep<false, ...> is empty.
template <bool emit, auto function>
struct keep {};
template <auto function>
struct keep<true, function> {
#if defined(__ELF__)
  __attribute__((visibility("hidden")))
#endif
  static void*
  use() {
    return reinterpret_cast<void*>(function);
  }
};

}  // namespace declared
}  // namespace detail
}  // namespace cushim

#include "../../api/declared_arities.inc"

// The stub's parameters, of the types the headers give them (placeholders where they declare no
// such function), named p0, p1, ...
#define CUSHIM_DECLARED_PARAMETERS(name, arity) (CUSHIM_DECLARED_P_##arity(name))
#define CUSHIM_DECLARED_ARGUMENTS(arity) (CUSHIM_DECLARED_A_##arity)

// What a CUSHIM_API_DECLARED line defines, called by the library's CUSHIM_API_<library> (its
// descriptor file) like CUSHIM_DEFINE_STUB, with `declared` and `arity` where a CUSHIM_API line
// has ret and params. A tier the descriptor leaves out (CUSHIM_CUDART_CORE) defines nothing.
#define CUSHIM_DEFINE_DECLARED_STUB(lib, conv, decl_name, name, param_count, unused, group)                            \
  struct decl_name;                                                                                                    \
  namespace cushim_declared_##name {                                                                                   \
    using prototype =                                                                                                  \
        ::cushim::detail::declared::prototype<decltype(::cushim::detail::declared::address<::decl_name>())>;           \
  }                                                                                                                    \
  static_assert(                                                                                                       \
      !cushim_declared_##name::prototype::declared || cushim_declared_##name::prototype::arity == param_count,         \
      "cushim: the " CUSHIM_HEADERS_##lib                                                                              \
      " declare " #decl_name                                                                                           \
      " with another number of parameters than any manifest of tools/manifests: regenerate the "                       \
      "tables from these headers (python3 tools/gen_api.py --headers DIR, docs/supported-headers.md)");                \
  extern "C" inline cushim_declared_##name::prototype::result conv name CUSHIM_DECLARED_PARAMETERS(name, param_count); \
  CUSHIM_DEFINE_CXX_STUB(lib, conv, cushim_declared_##name::prototype::result, name,                                   \
                         CUSHIM_DECLARED_PARAMETERS(name, param_count), CUSHIM_DECLARED_ARGUMENTS(param_count), group) \
  template struct ::cushim::detail::declared::keep<cushim_declared_##name::prototype::declared,                        \
                                                   ::cushim::detail::declared::address<::name>()>;

#define CUSHIM_API_DECLARED(lib, group, ret, name, params, args, decl_name, param_count) \
  CUSHIM_API_##lib(CUSHIM_DEFINE_DECLARED_STUB, group, decl_name, name, param_count, ())
