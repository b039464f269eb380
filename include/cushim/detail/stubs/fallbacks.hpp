// What a function returns when it cannot reach its library (docs/errors.md, "Error codes"): the
// library's status for "unavailable" or "missing", and for the few functions that answer through
// their arguments, those outputs set too. Shared by every stub of a return type.
#pragma once

#include <cstdio>
#include <type_traits>

#include "../search/fallback_status.hpp"
#include "../libraries/all.hpp"
#include "../load/load_once.hpp"  // unavailable_text

namespace cushim {
namespace detail {
namespace {

enum class failure { library_unavailable, function_missing };

// What a function that returns a handle (nvcc's __cudaRegisterFatBinary) gives when it cannot reach
// the library: not null, and the program only ever passes it back to the library's fallbacks.
inline void** placeholder_handle() {
  static void* handle = nullptr;
  return &handle;
}

// The value a function returns when it cannot reach the real library (docs/errors.md, "Error codes").
template <library L, class R, failure Why>
R fallback_value() {
  if constexpr (has_fallback_status<R>::value) {
    return Why == failure::library_unavailable ? fallback_status<R>::unavailable : fallback_status<R>::missing;
  } else if constexpr (std::is_same_v<R, const char*>) {
    const library_descriptor& d = descriptor_of(L);
    return Why == failure::library_unavailable ? unavailable_text(d) : d.missing_text;
  } else if constexpr (std::is_same_v<R, void**>) {
    return placeholder_handle();
  } else if constexpr (!std::is_void_v<R>) {
    return R{};  // version queries (size_t) return 0; struct results are zeroed
  }
}

// Most fallbacks only return a value: one function per library, return type and reason serves
// every stub of that return type. It takes no parameters and is called through the stub's own
// function type, which every ABI cushim builds for (x86-64 System V and Windows, AArch64) allows:
// the caller passes and removes the arguments, the callee ignores them.
template <library L, class R>
struct value_fallbacks {
  static R unavailable() { return fallback_value<L, R, failure::library_unavailable>(); }
  static R missing() { return fallback_value<L, R, failure::function_missing>(); }
};

// The few functions that answer through their arguments (descriptor: zeroed_outputs, text_outputs)
// get fallbacks of their own signature: count and version queries set their int* and unsigned*
// outputs to 0,
// text queries point a const char** at the explanation or write it into a char* buffer.
template <library L, class F>
struct output_fallbacks;
template <library L, class R, class... A>
struct output_fallbacks<L, R (*)(A...)> {
  template <failure Why>
  static R answer(A... args) {
    (write_output<Why>(args), ...);
    if constexpr (sizeof...(A) == 2) write_buffer<Why>(args...);
    return fallback_value<L, R, Why>();
  }
  static R unavailable(A... args) { return answer<failure::library_unavailable>(args...); }
  static R missing(A... args) { return answer<failure::function_missing>(args...); }

  template <failure Why>
  static const char* text() {
    const library_descriptor& d = descriptor_of(L);
    return Why == failure::library_unavailable ? unavailable_text(d) : d.missing_text;
  }
  template <failure Why, class T>
  static void write_output(T arg) {
    if constexpr (std::is_same_v<T, int*> || std::is_same_v<T, unsigned*>) {
      if (arg) *arg = 0;
    } else if constexpr (std::is_same_v<T, const char**>) {
      if (arg) *arg = text<Why>();
    }
  }
  // cudnnGetLastErrorString(char* message, size_t max_size)
  template <failure Why, class T, class U>
  static void write_buffer(T message, U size) {
    if constexpr (std::is_same_v<T, char*> && std::is_integral_v<U>) {
      if (message && size > 0) std::snprintf(message, std::size_t(size), "%s", text<Why>());
    }
  }
};

constexpr bool same_text(const char* a, const char* b) {
  while (*a && *a == *b) ++a, ++b;
  return *a == *b;
}

constexpr bool names_one_of_at_compile_time(const fixed_list<const char*>& names, const char* name) {
  for (const char* n : names) {
    if (same_text(n, name)) return true;
  }
  return false;
}

// Whether the function answers through its arguments when it cannot reach its library.
constexpr bool has_output_fallback(library lib, const char* name) {
  const library_descriptor& d = *descriptors[int(lib)];
  return names_one_of_at_compile_time(d.zeroed_outputs, name) || names_one_of_at_compile_time(d.text_outputs, name);
}

// A stub's two fallbacks, as the function a stub's constants can point at.
template <class Fallbacks>
platform::any_function select_fallback(failure why) {
  return why == failure::library_unavailable ? reinterpret_cast<platform::any_function>(&Fallbacks::unavailable)
                                             : reinterpret_cast<platform::any_function>(&Fallbacks::missing);
}

template <bool Outputs, library L, class F>
struct stub_fallbacks;
template <library L, class R, class... A>
struct stub_fallbacks<false, L, R (*)(A...)> {
  static constexpr auto select = &select_fallback<value_fallbacks<L, R>>;
};
template <library L, class F>
struct stub_fallbacks<true, L, F> {
  static constexpr auto select = &select_fallback<output_fallbacks<L, F>>;
};

}  // namespace
}  // namespace detail
}  // namespace cushim
