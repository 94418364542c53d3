#ifndef HLSCHECK_CCURL_SHIM_H
#define HLSCHECK_CCURL_SHIM_H
#include <curl/curl.h>
#include <zlib.h>

// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift cannot
// call: one typed wrapper per kind of argument hlscheck passes. Defined in Sources/CLazyLibraries
// (libcurl is loaded on first use, like FFmpeg).

typedef size_t (*hls_curl_data_callback)(char *buffer, size_t size, size_t count, void *context);

CURLcode hls_curl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode hls_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode hls_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode hls_curl_easy_setopt_list(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode hls_curl_easy_setopt_callback(CURL *handle, CURLoption option, hls_curl_data_callback value);
CURLcode hls_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLMcode hls_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

static inline CURLcode hls_curl_global_init(void) { return curl_global_init(CURL_GLOBAL_DEFAULT); }

// gzip and deflate bodies are inflated by hlscheck, not by curl, so that the inflation ratio is
// measured against the bytes that came over the wire (a compression bomb ends at 200:1).
// inflateInit2 is a macro: 15 + 32 = a 32 KiB window, zlib or gzip framing detected from the header.
static inline int hls_inflate_init(z_stream *stream) { return inflateInit2(stream, 15 + 32); }

/// The result of a finished transfer's message (CURLMsg's `data` is a union).
static inline CURLcode hls_curl_message_result(const CURLMsg *message) { return message->data.result; }

#endif
