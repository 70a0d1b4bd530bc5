#ifndef VODAPP_CAVFORMAT_H
#define VODAPP_CAVFORMAT_H

/* FFmpeg's libavformat, libavcodec and libavutil (Debian 12: FFmpeg 5.1), for remuxing a stream's
   parts into one MP4, loaded the first time a stream is muxed rather than when vodapp starts.

   Linked, the three libraries bring 130 others (codecs, GnuTLS, librsvg, …): 27 ms and 28 MiB of
   every start, for `vodapp --version` as for a playlist of plain files, which never mux. So their
   headers give the types, and each function is called through a pointer that `vod_av_load` looks
   up in the library of the major version these headers describe: `vod_avformat_open_input` is
   `avformat_open_input`. Nothing may be called before `vod_av_load` has answered 0. */

#include <stddef.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/mathematics.h>
#include <libavutil/mem.h>

/* Loads the libraries once per process; 0 when every function was found, else -1 with the reason
   (the loader's words: which library or function is missing) in `why`. */
int vod_av_load(char *why, size_t size);

/* Each function used: F(library, return type, name, parameters, arguments). */
#define VOD_AV_FUNCTIONS(F) \
    F(avutil, int, av_dict_set, (AVDictionary **pm, const char *key, const char *value, int flags), (pm, key, value, flags)) \
    F(avutil, AVDictionaryEntry *, av_dict_get, (const AVDictionary *m, const char *key, const AVDictionaryEntry *prev, int flags), (m, key, prev, flags)) \
    F(avutil, int64_t, av_rescale_q, (int64_t a, AVRational bq, AVRational cq), (a, bq, cq)) \
    F(avutil, int, av_compare_ts, (int64_t ts_a, AVRational tb_a, int64_t ts_b, AVRational tb_b), (ts_a, tb_a, ts_b, tb_b)) \
    F(avutil, int, av_strerror, (int errnum, char *errbuf, size_t errbuf_size), (errnum, errbuf, errbuf_size)) \
    F(avutil, void *, av_malloc, (size_t size), (size)) \
    F(avutil, int, av_log_format_line2, (void *ptr, int level, const char *fmt, va_list vl, char *line, int line_size, int *print_prefix), (ptr, level, fmt, vl, line, line_size, print_prefix)) \
    F(avcodec, AVPacket *, av_packet_alloc, (void), ()) \
    F(avcodec, int, avcodec_parameters_copy, (AVCodecParameters *dst, const AVCodecParameters *src), (dst, src)) \
    F(avformat, int64_t, avio_seek, (AVIOContext *s, int64_t offset, int whence), (s, offset, whence)) \
    F(avformat, int, avio_open2, (AVIOContext **s, const char *url, int flags, const AVIOInterruptCB *int_cb, AVDictionary **options), (s, url, flags, int_cb, options)) \
    F(avformat, int, avio_closep, (AVIOContext **s), (s)) \
    F(avformat, AVIOContext *, avio_alloc_context, (unsigned char *buffer, int buffer_size, int write_flag, void *opaque, \
        int (*read_packet)(void *opaque, uint8_t *buf, int buf_size), int (*write_packet)(void *opaque, uint8_t *buf, int buf_size), \
        int64_t (*seek)(void *opaque, int64_t offset, int whence)), (buffer, buffer_size, write_flag, opaque, read_packet, write_packet, seek)) \
    F(avformat, AVFormatContext *, avformat_alloc_context, (void), ()) \
    F(avformat, int, avformat_alloc_output_context2, (AVFormatContext **ctx, const AVOutputFormat *oformat, const char *format_name, const char *filename), (ctx, oformat, format_name, filename)) \
    F(avformat, int, avformat_open_input, (AVFormatContext **ps, const char *url, const AVInputFormat *fmt, AVDictionary **options), (ps, url, fmt, options)) \
    F(avformat, int, avformat_find_stream_info, (AVFormatContext *ic, AVDictionary **options), (ic, options)) \
    F(avformat, int, av_find_best_stream, (AVFormatContext *ic, enum AVMediaType type, int wanted_stream_nb, int related_stream, const AVCodec **decoder_ret, int flags), \
        (ic, type, wanted_stream_nb, related_stream, decoder_ret, flags)) \
    F(avformat, AVStream *, avformat_new_stream, (AVFormatContext *s, const AVCodec *c), (s, c)) \
    F(avformat, int, avformat_write_header, (AVFormatContext *s, AVDictionary **options), (s, options)) \
    F(avformat, int, av_read_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt)) \
    F(avformat, int, av_interleaved_write_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt)) \
    F(avformat, int, av_write_trailer, (AVFormatContext *s), (s))

/* The functions that return nothing, in the same form. */
#define VOD_AV_PROCEDURES(F) \
    F(avutil, void, av_dict_free, (AVDictionary **m), (m)) \
    F(avutil, void, av_free, (void *ptr), (ptr)) \
    F(avutil, void, av_freep, (void *ptr), (ptr)) \
    F(avutil, void, av_max_alloc, (size_t max), (max)) \
    F(avutil, void, av_log_set_level, (int level), (level)) \
    F(avutil, void, av_log_set_callback, (void (*callback)(void *, int, const char *, va_list)), (callback)) \
    F(avcodec, void, av_packet_free, (AVPacket **pkt), (pkt)) \
    F(avcodec, void, av_packet_unref, (AVPacket *pkt), (pkt)) \
    F(avcodec, void, av_packet_rescale_ts, (AVPacket *pkt, AVRational tb_src, AVRational tb_dst), (pkt, tb_src, tb_dst)) \
    F(avformat, void, avio_flush, (AVIOContext *s), (s)) \
    F(avformat, void, avio_context_free, (AVIOContext **s), (s)) \
    F(avformat, void, avformat_free_context, (AVFormatContext *s), (s)) \
    F(avformat, void, avformat_close_input, (AVFormatContext **s), (s))

#define VOD_AV_DECLARE(library, type, name, parameters, arguments) type vod_##name parameters;
VOD_AV_FUNCTIONS(VOD_AV_DECLARE)
VOD_AV_PROCEDURES(VOD_AV_DECLARE)
#undef VOD_AV_DECLARE

/* avio_tell is an inline function of the header, calling avio_seek. */
static inline int64_t vod_avio_tell(AVIOContext *s) { return vod_avio_seek(s, 0, SEEK_CUR); }

/* The macros Swift cannot import, as inline functions. */
static inline int vod_averror_eof(void) { return AVERROR_EOF; }
static inline int vod_averror_eio(void) { return AVERROR(EIO); }
static inline int vod_averror_exit(void) { return AVERROR_EXIT; }
static inline int vod_averror_eperm(void) { return AVERROR(EPERM); }
static inline int vod_averror_einval(void) { return AVERROR(EINVAL); }
static inline int64_t vod_no_pts(void) { return AV_NOPTS_VALUE; }
static inline AVRational vod_time_base_q(void) { return (AVRational){1, AV_TIME_BASE}; }
static inline int vod_avio_flag_write(void) { return AVIO_FLAG_WRITE; }

#endif
