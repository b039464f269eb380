// Loads two plugins, each with its own cushim, and prints what each reports:
//   plugin_host FIRST.so FIRST_CUDNN SECOND.so SECOND_CUDNN local|global
// The first plugin is loaded RTLD_LOCAL or RTLD_GLOBAL, the second RTLD_LOCAL.
#include <dlfcn.h>

#include <cstdio>
#include <cstring>

static const char* report(const char* plugin, const char* cudnn_file, int flags) {
  void* h = dlopen(plugin, RTLD_NOW | flags);
  if (!h) return dlerror();
  auto* fn = reinterpret_cast<const char* (*)(const char*)>(dlsym(h, "plugin_report"));
  return fn ? fn(cudnn_file) : "no plugin_report";
}

int main(int argc, char** argv) {
  if (argc != 6) return 64;
  int first_flags = std::strcmp(argv[5], "global") == 0 ? RTLD_GLOBAL : RTLD_LOCAL;
  std::printf("first: %s\n", report(argv[1], argv[2], first_flags));
  std::printf("second: %s\n", report(argv[3], argv[4], RTLD_LOCAL));
  return 0;
}
