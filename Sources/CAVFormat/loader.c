#include "CAVFormat.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define VOD_TEXT(x) #x
#define VOD_SONAME(library, major) "lib" #library ".so." VOD_TEXT(major)

/* The sonames of the ABI the headers were built against: another major version lays its structs
   out differently, so it is not looked for. */
static const char *const vod_avutil_soname = VOD_SONAME(avutil, LIBAVUTIL_VERSION_MAJOR);
static const char *const vod_avcodec_soname = VOD_SONAME(avcodec, LIBAVCODEC_VERSION_MAJOR);
static const char *const vod_avformat_soname = VOD_SONAME(avformat, LIBAVFORMAT_VERSION_MAJOR);

#define VOD_AV_POINTER(library, type, name, parameters, arguments) static type (*vod_p_##name) parameters;
VOD_AV_FUNCTIONS(VOD_AV_POINTER)
VOD_AV_PROCEDURES(VOD_AV_POINTER)

#define VOD_AV_CALL(library, type, name, parameters, arguments) type vod_##name parameters { return vod_p_##name arguments; }
#define VOD_AV_RUN(library, type, name, parameters, arguments) type vod_##name parameters { vod_p_##name arguments; }
VOD_AV_FUNCTIONS(VOD_AV_CALL)
VOD_AV_PROCEDURES(VOD_AV_RUN)

static pthread_once_t vod_once = PTHREAD_ONCE_INIT;
static char vod_failure[512];

static void *vod_open(const char *soname) {
    /* RTLD_LOCAL: their symbols stay theirs; RTLD_NODELETE: the pointers stay good for the process. */
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (handle == NULL && vod_failure[0] == 0) {
        const char *reason = dlerror();
        snprintf(vod_failure, sizeof vod_failure, "%s", reason != NULL ? reason : soname);
    }
    return handle;
}

static void vod_load_once(void) {
    void *avutil = vod_open(vod_avutil_soname);
    void *avcodec = avutil != NULL ? vod_open(vod_avcodec_soname) : NULL;
    void *avformat = avcodec != NULL ? vod_open(vod_avformat_soname) : NULL;
    if (avformat == NULL) return;
#define VOD_AV_FIND(library, type, name, parameters, arguments) \
    *(void **)(&vod_p_##name) = dlsym(library, #name); \
    if (vod_p_##name == NULL && vod_failure[0] == 0) \
        snprintf(vod_failure, sizeof vod_failure, "%s has no %s", vod_##library##_soname, #name);
    VOD_AV_FUNCTIONS(VOD_AV_FIND)
    VOD_AV_PROCEDURES(VOD_AV_FIND)
#undef VOD_AV_FIND
}

int vod_av_load(char *why, size_t size) {
    pthread_once(&vod_once, vod_load_once);
    if (vod_failure[0] == 0) return 0;
    if (why != NULL && size > 0) snprintf(why, size, "%s", vod_failure);
    return -1;
}
