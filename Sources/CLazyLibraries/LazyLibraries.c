// Stubs for FFmpeg, libxml2 and libcurl (with zlib), loaded with dlopen on first use (include/CLazyLibraries.h says why).
//
// Everything defined here is hidden (Package.swift compiles this target with -fvisibility=hidden;
// not a `#pragma GCC visibility`, which would also hide the C library's declarations and make
// references to them unresolvable): the stubs carry the real functions' names so that the Swift
// code calls them unchanged, and a hidden symbol never reaches the executable's dynamic symbol
// table, so a library's own calls (libavformat calling libavcodec) cannot be interposed by them.

// dlinfo(3), to name the file a library was loaded from.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#if defined(__linux__)
#include <link.h>
#endif
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/aes.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/mem.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>
// Not LIBXML_ICU_ENABLED: see Sources/CLibXML2/shim.h (nothing here touches the converters).
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlmemory.h>
#include <libxml/xmlschemas.h>
#include <libxml/xmlwriter.h>

// curl's setopt type checks are macros over the real names; the wrappers below call through pointers.
#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>
#include <zlib.h>
// The typed wrappers' declarations, so that a definition below that differs is a compile error.
#include "../CCurl/shim.h"

#include "CLazyLibraries.h"
#include "functions.h"

#define HLS_TEXT(x) #x
#define HLS_STRING(x) HLS_TEXT(x)

// The libraries, by the SONAME the headers this was compiled against belong to: a library of
// another major version has another ABI, and is refused by name rather than called wrongly.
enum hls_library { LIB_avutil, LIB_swresample, LIB_swscale, LIB_avcodec, LIB_avformat, LIB_xml2, LIB_z, LIB_curl, LIB_COUNT };
enum hls_group { GROUP_FFMPEG, GROUP_LIBXML2, GROUP_CURL, GROUP_COUNT };

// libxml2 2.14 changed its ABI and its SONAME (libxml2.so.16).
#if LIBXML_VERSION >= 21400
#define HLS_LIBXML2_MAJOR 16
#define HLS_LIBXML2_PACKAGE "libxml2-16"
#else
#define HLS_LIBXML2_MAJOR 2
#define HLS_LIBXML2_PACKAGE "libxml2"
#endif

static const struct {
    const char *soname;
    const char *package;  // Debian's package name for it
    enum hls_group group;
    // FFmpeg's `<library>_version()` and the major version the headers are of: a file under the
    // right name (a symbolic link to another major version, a library on LD_LIBRARY_PATH) is
    // refused by what it says it is, before one of its functions is called with the wrong ABI.
    const char *version_function;
    unsigned major;
} libraries[LIB_COUNT] = {
    [LIB_avutil] = {"libavutil.so." HLS_STRING(LIBAVUTIL_VERSION_MAJOR), "libavutil" HLS_STRING(LIBAVUTIL_VERSION_MAJOR), GROUP_FFMPEG,
                    "avutil_version", LIBAVUTIL_VERSION_MAJOR},
    [LIB_swresample] = {"libswresample.so." HLS_STRING(LIBSWRESAMPLE_VERSION_MAJOR), "libswresample" HLS_STRING(LIBSWRESAMPLE_VERSION_MAJOR), GROUP_FFMPEG,
                        "swresample_version", LIBSWRESAMPLE_VERSION_MAJOR},
    [LIB_swscale] = {"libswscale.so." HLS_STRING(LIBSWSCALE_VERSION_MAJOR), "libswscale" HLS_STRING(LIBSWSCALE_VERSION_MAJOR), GROUP_FFMPEG,
                     "swscale_version", LIBSWSCALE_VERSION_MAJOR},
    [LIB_avcodec] = {"libavcodec.so." HLS_STRING(LIBAVCODEC_VERSION_MAJOR), "libavcodec" HLS_STRING(LIBAVCODEC_VERSION_MAJOR), GROUP_FFMPEG,
                     "avcodec_version", LIBAVCODEC_VERSION_MAJOR},
    [LIB_avformat] = {"libavformat.so." HLS_STRING(LIBAVFORMAT_VERSION_MAJOR), "libavformat" HLS_STRING(LIBAVFORMAT_VERSION_MAJOR), GROUP_FFMPEG,
                      "avformat_version", LIBAVFORMAT_VERSION_MAJOR},
    [LIB_xml2] = {"libxml2.so." HLS_STRING(HLS_LIBXML2_MAJOR), HLS_LIBXML2_PACKAGE, GROUP_LIBXML2, NULL, 0},
    // libcurl's SONAME has been libcurl.so.4 since 2006 (7.16); zlib's libz.so.1 since 1.1.
    [LIB_z] = {"libz.so.1", "zlib1g", GROUP_CURL, NULL, 0},
    [LIB_curl] = {"libcurl.so.4", "libcurl4", GROUP_CURL, NULL, 0},
};

// One index per stubbed function, and the library each comes from.
#define HLS_INDEX_F(library, type, name, parameters, arguments) FUNCTION_##name,
#define HLS_INDEX_V(library, name, parameters, arguments) FUNCTION_##name,
#define HLS_INDEX_L(library, name) FUNCTION_##name,
enum hls_function { HLS_LAZY_FUNCTIONS(HLS_INDEX_F, HLS_INDEX_V) HLS_LAZY_VARIADIC(HLS_INDEX_L) FUNCTION_hls_xmlFree, FUNCTION_COUNT };

#define HLS_ENTRY_F(library, type, name, parameters, arguments) [FUNCTION_##name] = {#name, LIB_##library},
#define HLS_ENTRY_V(library, name, parameters, arguments) [FUNCTION_##name] = {#name, LIB_##library},
static const struct {
    const char *name;
    enum hls_library library;
} functions[FUNCTION_COUNT] = {
    HLS_LAZY_FUNCTIONS(HLS_ENTRY_F, HLS_ENTRY_V)
#define HLS_ENTRY_L(library, name) [FUNCTION_##name] = {#name, LIB_##library},
    HLS_LAZY_VARIADIC(HLS_ENTRY_L)
    // A variable holding a function pointer (xmlMemSetup may change it): its address is kept.
    [FUNCTION_hls_xmlFree] = {"xmlFree", LIB_xml2},
};

// Written once, inside pthread_once, before any reader gets past it: pthread_once orders
// those writes before every later return from it, so the readers need no lock of their own.
static struct {
    pthread_once_t once;
    const char *failure;  // NULL once loaded
    char message[768];
} groups[GROUP_COUNT] = {{PTHREAD_ONCE_INIT, NULL, {0}}, {PTHREAD_ONCE_INIT, NULL, {0}}, {PTHREAD_ONCE_INIT, NULL, {0}}};
static void *addresses[FUNCTION_COUNT];

// The SONAME to open. Debug builds only: HLSCHECK_TEST_MISSING_LIBRARY=<name> (libavcodec,
// libxml2, ...) opens a file that does not exist instead of that library, so the tests see what a
// user without it sees.
static const char *soname_to_open(enum hls_library library, char *buffer, size_t capacity) {
#if defined(DEBUG)
    const char *missing = getenv("HLSCHECK_TEST_MISSING_LIBRARY");
    size_t length = missing ? strlen(missing) : 0;
    if (length > 0 && strncmp(libraries[library].soname, missing, length) == 0
        && strncmp(libraries[library].soname + length, ".so.", 4) == 0) {
        snprintf(buffer, capacity, "%s.missing-for-test", libraries[library].soname);
        return buffer;
    }
#else
    (void)buffer;
    (void)capacity;
#endif
    return libraries[library].soname;
}

// The file the loader opened for `handle` (LD_LIBRARY_PATH, a symbolic link), for messages.
static const char *loaded_file(void *handle, const char *fallback) {
#if defined(__linux__)
    struct link_map *map = NULL;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && map->l_name[0]) return map->l_name;
#else
    (void)handle;
#endif
    return fallback;
}

static void load_group(enum hls_group group) {
    void *handles[LIB_COUNT] = {0};
    for (int library = 0; library < LIB_COUNT; library++) {
        if (libraries[library].group != group) continue;
        char buffer[128];
        // RTLD_LOCAL: nothing of theirs joins the global scope, where it could interpose.
        handles[library] = dlopen(soname_to_open(library, buffer, sizeof buffer), RTLD_NOW | RTLD_LOCAL);
        if (!handles[library]) {
            const char *reason = dlerror();
            snprintf(groups[group].message, sizeof groups[group].message,
                     "cannot load %s (%s): install the Debian package %s", libraries[library].soname,
                     reason ? reason : "not found", libraries[library].package);
            groups[group].failure = groups[group].message;
            return;
        }
        if (libraries[library].version_function) {
            dlerror();
            unsigned (*version)(void) = (unsigned (*)(void))dlsym(handles[library], libraries[library].version_function);
            unsigned found = version ? version() : 0;
            if (found >> 16 != libraries[library].major) {
                const char *file = loaded_file(handles[library], libraries[library].soname);
                char found_text[64];
                if (version) snprintf(found_text, sizeof found_text, "version %u.%u.%u", found >> 16, (found >> 8) & 0xFF, found & 0xFF);
                else snprintf(found_text, sizeof found_text, "without %s()", libraries[library].version_function);
                snprintf(groups[group].message, sizeof groups[group].message,
                         "%s is %s, not the major version %u hlscheck was built for (another library under the name %s: "
                         "check LD_LIBRARY_PATH and symbolic links); install the Debian package %s",
                         file, found_text, libraries[library].major, libraries[library].soname, libraries[library].package);
                groups[group].failure = groups[group].message;
                return;
            }
        }
    }
    for (int function = 0; function < FUNCTION_COUNT; function++) {
        enum hls_library library = functions[function].library;
        if (libraries[library].group != group) continue;
        dlerror();
        void *address = dlsym(handles[library], functions[function].name);
        if (!address) {
            snprintf(groups[group].message, sizeof groups[group].message,
                     "%s has no function %s: it is not the version hlscheck was built for; install the Debian package %s",
                     libraries[library].soname, functions[function].name, libraries[library].package);
            groups[group].failure = groups[group].message;
            return;
        }
        addresses[function] = address;
    }
    groups[group].failure = NULL;
}

static void load_ffmpeg(void) { load_group(GROUP_FFMPEG); }
static void load_libxml2(void) { load_group(GROUP_LIBXML2); }
static void load_curl(void) { load_group(GROUP_CURL); }

const char *hls_load_ffmpeg(void) {
    pthread_once(&groups[GROUP_FFMPEG].once, load_ffmpeg);
    return groups[GROUP_FFMPEG].failure;
}

const char *hls_load_libxml2(void) {
    pthread_once(&groups[GROUP_LIBXML2].once, load_libxml2);
    return groups[GROUP_LIBXML2].failure;
}

const char *hls_load_curl(void) {
    pthread_once(&groups[GROUP_CURL].once, load_curl);
    return groups[GROUP_CURL].failure;
}

// A stub called although its library cannot be loaded: the callers check hls_load_* first
// wherever they can report it (the check, inspect, embed, the XML reports), so this is the last
// resort for a path that did not. It cannot return a value the caller would understand, and
// must not crash: it says what is missing on standard error and exits with 2, "could not run"
// (design.md §4). _exit, not exit: other threads may be inside Swift code that atexit would tear down.
// Several threads can reach it at once (a remote check inspects two segments while FFmpeg
// loads): one says it and exits; the others wait for that exit, so the line is written once.
static void unavailable(const char *failure) {
    static atomic_flag said = ATOMIC_FLAG_INIT;
    if (atomic_flag_test_and_set(&said)) {
        for (;;) pause();
    }
    char line[900];
    int length = snprintf(line, sizeof line, "hlscheck: %s\n", failure);
    if (length > 0) {
        ssize_t written = write(STDERR_FILENO, line, (size_t)length < sizeof line ? (size_t)length : sizeof line - 1);
        (void)written;
    }
    _exit(2);
}

static void *address_of(enum hls_function function) {
    enum hls_group group = libraries[functions[function].library].group;
    const char *failure = group == GROUP_FFMPEG ? hls_load_ffmpeg() : group == GROUP_LIBXML2 ? hls_load_libxml2() : hls_load_curl();
    if (failure) unavailable(failure);
    return addresses[function];
}

// The stubs: each a definition of the header's declaration, forwarding to the real function.
#define HLS_STUB_F(library, type, name, parameters, arguments) \
    type name parameters { return ((__typeof__(&name))address_of(FUNCTION_##name)) arguments; }
#define HLS_STUB_V(library, name, parameters, arguments) \
    void name parameters { ((__typeof__(&name))address_of(FUNCTION_##name)) arguments; }
HLS_LAZY_FUNCTIONS(HLS_STUB_F, HLS_STUB_V)

// Declared in Sources/CLibXML2/shim.h: xmlFree is a variable, read at each call.
void hls_xml_free(void *pointer) {
    xmlFreeFunc free_function = *(xmlFreeFunc *)address_of(FUNCTION_hls_xmlFree);
    free_function(pointer);
}

// Declared in Sources/CCurl/shim.h: curl's variadic functions, one typed wrapper per kind of
// argument hlscheck passes (Swift cannot call a variadic C function).
typedef CURLcode (*hls_easy_setopt_function)(CURL *, CURLoption, ...);
typedef CURLcode (*hls_easy_getinfo_function)(CURL *, CURLINFO, ...);
typedef CURLMcode (*hls_multi_setopt_function)(CURLM *, CURLMoption, ...);

CURLcode hls_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return ((hls_easy_setopt_function)address_of(FUNCTION_curl_easy_setopt))(handle, option, value);
}
CURLcode hls_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return ((hls_easy_setopt_function)address_of(FUNCTION_curl_easy_setopt))(handle, option, value);
}
CURLcode hls_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return ((hls_easy_setopt_function)address_of(FUNCTION_curl_easy_setopt))(handle, option, value);
}
CURLcode hls_curl_easy_setopt_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return ((hls_easy_setopt_function)address_of(FUNCTION_curl_easy_setopt))(handle, option, value);
}
CURLcode hls_curl_easy_setopt_callback(CURL *handle, CURLoption option, hls_curl_data_callback value) {
    return ((hls_easy_setopt_function)address_of(FUNCTION_curl_easy_setopt))(handle, option, value);
}
CURLcode hls_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return ((hls_easy_getinfo_function)address_of(FUNCTION_curl_easy_getinfo))(handle, info, value);
}
CURLMcode hls_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return ((hls_multi_setopt_function)address_of(FUNCTION_curl_multi_setopt))(multi, option, value);
}
