// FFmpeg's libavformat, libavcodec and libavutil (Debian 12: FFmpeg 5.1), for remuxing a
// stream's parts into one MP4. The macros Swift cannot import are wrapped as inline functions.
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/mathematics.h>
#include <libavutil/mem.h>

static inline int vod_averror_eof(void) { return AVERROR_EOF; }
static inline int vod_averror_eio(void) { return AVERROR(EIO); }
static inline int vod_averror_exit(void) { return AVERROR_EXIT; }
static inline int vod_averror_eperm(void) { return AVERROR(EPERM); }
static inline int vod_averror_einval(void) { return AVERROR(EINVAL); }
static inline int64_t vod_no_pts(void) { return AV_NOPTS_VALUE; }
static inline AVRational vod_time_base_q(void) { return (AVRational){1, AV_TIME_BASE}; }
static inline int vod_avio_flag_write(void) { return AVIO_FLAG_WRITE; }
