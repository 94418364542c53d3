#ifndef HLSCHECK_CFFMPEG_SHIM_H
#define HLSCHECK_CFFMPEG_SHIM_H
// FFmpeg macros Swift cannot import (design.md §7), re-exported as inline functions with an
// hls_ prefix so they never collide with a future FFmpeg symbol.
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <libavutil/mem.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libavutil/aes.h>
#include <libswscale/swscale.h>

static inline int hls_averror(int posixError) { return AVERROR(posixError); }
static inline int hls_averror_eof(void) { return AVERROR_EOF; }
static inline int hls_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int64_t hls_av_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline AVRational hls_av_time_base_q(void) { return AV_TIME_BASE_Q; }
static inline int hls_av_time_base(void) { return AV_TIME_BASE; }

#endif
