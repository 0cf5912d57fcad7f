// FoundationNetworking (swift-corelibs-foundation) on Linux drives libcurl's multi interface with one dispatch
// source per socket and direction: libcurl says through its socket callback whether it waits for the socket to be
// readable (CURL_POLL_IN), writable (CURL_POLL_OUT), both, or no more (CURL_POLL_REMOVE). corelibs adds a source
// for each direction asked for, but removes them only on CURL_POLL_REMOVE. A new connection is watched for writing
// while it connects and then for reading only, so its write source stays: a connected socket is always writable,
// and libcurl is woken, finds nothing to do and is woken again, as fast as a core allows, for as long as the body
// takes to arrive. Measured: a 200 KB download at 20 KB/s cost 8.9 s of CPU in 10 s, bare URLSession or
// podarchive alike (swift-corelibs-foundation up to at least its 2026-08 main, libcurl 7.88).
//
// It also takes decoding of bodies into podarchive's hands. corelibs turns libcurl's body decoding on for every
// request (`set(automaticBodyDecompression: true)`: CURLOPT_ACCEPT_ENCODING "", which also makes libcurl add an
// Accept-Encoding header of everything it can decode, then CURLOPT_HTTP_CONTENT_DECODING 1), and libcurl 7.88 ends
// a gzip or deflate stream cut before its trailer as a success: a truncated body arrived as a complete, shorter
// one. `curl_easy_setopt` is defined here too, and hands libcurl NULL for the first (no header of libcurl's: each
// request states its own Accept-Encoding; no decoding) and 0 for the second, so the body arrives as it was sent
// and podarchive inflates it itself, checking the stream's end (see BodyFraming.swift).
//
// This file corrects it where it happens. It defines `curl_multi_setopt`, so FoundationNetworking's call binds
// here (a definition in the program comes before libcurl's), and hands libcurl a socket callback of its own that
// calls corelibs' one: when libcurl stops asking for a direction, corelibs is first told to remove the socket's
// watches and then asked for what libcurl wants now, which is the sequence corelibs already handles when libcurl
// itself sends it. Everything else goes to libcurl unchanged. The definitions are weak: a program linked with a
// static libcurl keeps libcurl's own and simply goes without the correction.
#define _GNU_SOURCE
#include "ccurlsockets.h"

#include <stdatomic.h>

#ifdef __linux__
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

// libcurl's ABI (curl/multi.h, curl/curl.h), which never changes: its -dev package, with the header, is not needed
// to build.
enum { CURLMOPT_SOCKETFUNCTION = 20001, CURLMOPT_SOCKETDATA = 10002 };
enum { CURLOPT_ACCEPT_ENCODING = 10102, CURLOPT_HTTP_CONTENT_DECODING = 158 };
enum { CURL_POLL_NONE = 0, CURL_POLL_IN = 1, CURL_POLL_OUT = 2, CURL_POLL_REMOVE = 4 };
typedef int (*socket_callback)(void *easy, int socket, int what, void *userp, void *socketp);
typedef int (*setopt_function)(void *multi, int option, ...);
typedef int (*assign_function)(void *multi, int socket, void *socketp);
typedef int (*cleanup_function)(void *multi);
typedef int (*action_function)(void *multi, int socket, int events, int *running);
typedef int (*easy_setopt_function)(void *easy, int option, ...);

static atomic_int correcting = 1;
static atomic_ullong actions;
static atomic_ullong renewed;
static atomic_int decoding_taken;

// libcurl's own functions, found once (the next definition after this program's).
static setopt_function real_setopt;
static assign_function real_assign;
static cleanup_function real_cleanup;
static action_function real_action;
static easy_setopt_function real_easy_setopt;
static pthread_once_t found = PTHREAD_ONCE_INIT;

static void *libcurl_function(const char *name) {
    void *function = dlsym(RTLD_NEXT, name);
    if (!function) {
        void *library = dlopen("libcurl.so.4", RTLD_LAZY | RTLD_NOLOAD);
        function = library ? dlsym(library, name) : NULL;
    }
    if (!function) {
        fprintf(stderr, "podarchive: libcurl's %s was not found\n", name);
        abort();
    }
    return function;
}

static void find_libcurl(void) {
    real_setopt = (setopt_function)libcurl_function("curl_multi_setopt");
    real_assign = (assign_function)libcurl_function("curl_multi_assign");
    real_cleanup = (cleanup_function)libcurl_function("curl_multi_cleanup");
    real_action = (action_function)libcurl_function("curl_multi_socket_action");
    real_easy_setopt = (easy_setopt_function)libcurl_function("curl_easy_setopt");
}

// One multi handle (one URLSession): corelibs' callback and its data, and what libcurl last asked for each socket.
struct watched {
    int socket;
    int what;
};
struct multi_context {
    void *multi;
    socket_callback callback;
    void *userp;
    struct watched *sockets;
    int count, capacity;
    struct multi_context *next;
};
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct multi_context *contexts;

// Records what libcurl now asks for `socket` and returns what it asked before (0: nothing). Called with the lock.
static int record(struct multi_context *context, int socket, int what) {
    int index = 0;
    while (index < context->count && context->sockets[index].socket != socket) index++;
    int before = index < context->count ? context->sockets[index].what : 0;
    if (what == CURL_POLL_REMOVE) {
        if (index < context->count) context->sockets[index] = context->sockets[--context->count];
        return before;
    }
    if (index == context->count && context->count == context->capacity) {
        int capacity = context->capacity ? context->capacity * 2 : 8;
        struct watched *grown = realloc(context->sockets, (size_t)capacity * sizeof *grown);
        if (!grown) return before;  // Not recorded: this socket is passed on as corelibs would see it.
        context->sockets = grown;
        context->capacity = capacity;
    }
    if (index == context->count) {
        context->sockets[index].socket = socket;
        context->count++;
    }
    context->sockets[index].what = what;
    return before;
}

static int socket_changed(void *easy, int socket, int what, void *userp, void *socketp) {
    struct multi_context *context = userp;
    pthread_mutex_lock(&lock);
    int before = record(context, socket, what);
    pthread_mutex_unlock(&lock);
    int dropped = what != CURL_POLL_REMOVE && (before & ~what & (CURL_POLL_IN | CURL_POLL_OUT));
    if (!dropped || !socketp) return context->callback(easy, socket, what, context->userp, socketp);
    // corelibs cancels both sources and releases its record of the socket (`socketp`); libcurl is told to forget
    // that record, and corelibs then makes a new one with only the sources asked for now.
    atomic_fetch_add(&renewed, 1);
    int result = context->callback(easy, socket, CURL_POLL_REMOVE, context->userp, socketp);
    real_assign(context->multi, socket, NULL);
    if (result != 0 || what == CURL_POLL_NONE) return result;
    return context->callback(easy, socket, what, context->userp, NULL);
}

// The context of `multi`, made on first use. Called with the lock.
static struct multi_context *context_of(void *multi) {
    struct multi_context *context = contexts;
    while (context && context->multi != multi) context = context->next;
    if (!context && (context = calloc(1, sizeof *context))) {
        context->multi = multi;
        context->next = contexts;
        contexts = context;
    }
    return context;
}

__attribute__((weak)) int curl_multi_setopt(void *multi, int option, ...) {
    pthread_once(&found, find_libcurl);
    // Every multi option is one pointer-sized argument (a long, a pointer, a function or a curl_off_t), passed the
    // same way on the 64-bit targets Swift supports on Linux.
    va_list arguments;
    va_start(arguments, option);
    void *value = va_arg(arguments, void *);
    va_end(arguments);
    if ((option != CURLMOPT_SOCKETFUNCTION && option != CURLMOPT_SOCKETDATA) || !atomic_load(&correcting)) {
        return real_setopt(multi, option, value);
    }
    pthread_mutex_lock(&lock);
    struct multi_context *context = context_of(multi);
    if (context && option == CURLMOPT_SOCKETFUNCTION) context->callback = (socket_callback)value;
    if (context && option == CURLMOPT_SOCKETDATA) context->userp = value;
    socket_callback callback = context ? context->callback : NULL;
    pthread_mutex_unlock(&lock);
    if (!context) return real_setopt(multi, option, value);
    int result = real_setopt(multi, CURLMOPT_SOCKETDATA, (void *)context);
    if (result != 0) return result;
    return real_setopt(multi, CURLMOPT_SOCKETFUNCTION, callback ? (void *)socket_changed : NULL);
}

__attribute__((weak)) int curl_multi_cleanup(void *multi) {
    pthread_once(&found, find_libcurl);
    // libcurl may still call the socket callback while it closes connections: the context goes afterwards.
    int result = real_cleanup(multi);
    pthread_mutex_lock(&lock);
    struct multi_context **link = &contexts;
    while (*link && (*link)->multi != multi) link = &(*link)->next;
    struct multi_context *context = *link;
    if (context) *link = context->next;
    pthread_mutex_unlock(&lock);
    if (context) {
        free(context->sockets);
        free(context);
    }
    return result;
}

__attribute__((weak)) int curl_multi_socket_action(void *multi, int socket, int events, int *running) {
    pthread_once(&found, find_libcurl);
    atomic_fetch_add_explicit(&actions, 1, memory_order_relaxed);
    return real_action(multi, socket, events, running);
}

__attribute__((weak)) int curl_easy_setopt(void *easy, int option, ...) {
    pthread_once(&found, find_libcurl);
    // Every easy option is one argument of a long, a pointer, a function or a curl_off_t: one pointer-sized
    // value on the 64-bit targets Swift supports on Linux (as for the multi options above).
    va_list arguments;
    va_start(arguments, option);
    void *value = va_arg(arguments, void *);
    va_end(arguments);
    if (option == CURLOPT_ACCEPT_ENCODING || option == CURLOPT_HTTP_CONTENT_DECODING) {
        atomic_store(&decoding_taken, 1);
        value = NULL;  // no Accept-Encoding of libcurl's; decoding off (0)
    }
    return real_easy_setopt(easy, option, value);
}

int podarchive_curl_hands_over_encoded_bodies(void) { return atomic_load(&decoding_taken); }

void podarchive_curl_sockets_correct(int enabled) { atomic_store(&correcting, enabled != 0); }
unsigned long long podarchive_curl_socket_actions(void) { return atomic_load(&actions); }
unsigned long long podarchive_curl_socket_watches_renewed(void) { return atomic_load(&renewed); }

#else

int podarchive_curl_hands_over_encoded_bodies(void) { return 0; }
void podarchive_curl_sockets_correct(int enabled) { (void)enabled; }
unsigned long long podarchive_curl_socket_actions(void) { return 0; }
unsigned long long podarchive_curl_socket_watches_renewed(void) { return 0; }

#endif
