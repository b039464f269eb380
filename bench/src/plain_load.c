/* The floor under cushim-doctor: a plain program that dlopens the libraries the doctor reports on
 * (each soname given, RTLD_NOW, as cushim loads) and nothing else. Exit 3 when one does not load. */
#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char** argv) {
  int failed = 0;
  for (int i = 1; i < argc; ++i) {
    if (!dlopen(argv[i], RTLD_NOW | RTLD_LOCAL)) {
      fprintf(stderr, "plain_load: %s\n", dlerror());
      failed = 1;
    }
  }
  _exit(failed ? 3 : 0);
}
