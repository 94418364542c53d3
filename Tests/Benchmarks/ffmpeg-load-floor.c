// The floor of every hlscheck run that inspects a segment: loading FFmpeg's libraries (and the
// ≈ 130 they need) the way hlscheck does (Sources/CLazyLibraries: dlopen, RTLD_NOW | RTLD_LOCAL),
// and nothing else. Part 50-embed-vs-copy times it beside `cp -r` and embed.
#include <dlfcn.h>
#include <stdio.h>
#include <libavcodec/version.h>
#include <libavformat/version.h>
#include <libavutil/version.h>
#include <libswresample/version.h>
#include <libswscale/version.h>

#define STRING(x) #x
#define NAME(library, major) "lib" library ".so." STRING(major)

int main(void) {
    const char *libraries[] = {
        NAME("avutil", LIBAVUTIL_VERSION_MAJOR), NAME("swresample", LIBSWRESAMPLE_VERSION_MAJOR),
        NAME("swscale", LIBSWSCALE_VERSION_MAJOR), NAME("avcodec", LIBAVCODEC_VERSION_MAJOR),
        NAME("avformat", LIBAVFORMAT_VERSION_MAJOR)};
    for (unsigned i = 0; i < sizeof libraries / sizeof *libraries; i++) {
        if (!dlopen(libraries[i], RTLD_NOW | RTLD_LOCAL)) {
            fprintf(stderr, "%s\n", dlerror());
            return 1;
        }
    }
    return 0;
}
