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
#include <libswresample/swresample.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>
#include <libavutil/opt.h>
#include <libavutil/dovi_meta.h>

static inline int hls_averror(int posixError) { return AVERROR(posixError); }
static inline int hls_averror_eof(void) { return AVERROR_EOF; }
static inline int hls_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int64_t hls_av_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline AVRational hls_av_time_base_q(void) { return AV_TIME_BASE_Q; }
static inline int hls_av_time_base(void) { return AV_TIME_BASE; }

// Audio plumbing whose pointer-to-pointer parameters Swift imports awkwardly (AudioTranscoder).
static inline int hls_swr_convert_frame(SwrContext *s, uint8_t **out, int out_count, const AVFrame *in) {
    return swr_convert(s, out, out_count, in ? (const uint8_t **)in->extended_data : NULL, in ? in->nb_samples : 0);
}
static inline int hls_audio_fifo_write(AVAudioFifo *fifo, uint8_t **planes, int samples) {
    return av_audio_fifo_write(fifo, (void **)planes, samples);
}
static inline int hls_audio_fifo_read_frame(AVAudioFifo *fifo, AVFrame *frame, int samples) {
    return av_audio_fifo_read(fifo, (void **)frame->extended_data, samples);
}
static inline int hls_profile_aac_low(void) { return FF_PROFILE_AAC_LOW; }
static inline int hls_codec_flag_global_header(void) { return AV_CODEC_FLAG_GLOBAL_HEADER; }

#endif
