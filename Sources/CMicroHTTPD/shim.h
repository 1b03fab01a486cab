#include <stdint.h>
#include <stddef.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <microhttpd.h>
#include <dlfcn.h>

// libmicrohttpd's header, for its types and constants only: the library itself is not linked
// but opened when `formulary serve` starts a daemon (FormularyServer's LibMicroHTTPD), so that
// every other command starts without loading it and GnuTLS behind it.

// Every libmicrohttpd function Formulary calls. A new call is one more name here.
#define FORMULARY_MHD_FUNCTIONS(X) \
    X(MHD_start_daemon) X(MHD_quiesce_daemon) X(MHD_stop_daemon) X(MHD_get_daemon_info) \
    X(MHD_get_connection_info) X(MHD_get_connection_values) \
    X(MHD_create_response_from_buffer) X(MHD_add_response_header) X(MHD_queue_response) \
    X(MHD_destroy_response)

/// libmicrohttpd's functions, each a pointer of the type the header declares for it, so that
/// a call through the table is checked as a call of the function itself would be.
typedef struct formulary_mhd {
#define FORMULARY_MHD_FIELD(name) __typeof__(name) *_Nonnull name;
    FORMULARY_MHD_FUNCTIONS(FORMULARY_MHD_FIELD)
#undef FORMULARY_MHD_FIELD
} formulary_mhd;

/// Opens `library` (libmicrohttpd's soname, `libmicrohttpd.so.12`) and fills `functions`
/// with every function above. Returns NULL when all were found, or the dynamic loader's
/// reason (valid until the next loader call on this thread: copy it at once). The library
/// stays loaded for the life of the process.
static inline const char *_Nullable formulary_mhd_load(const char *_Nonnull library,
                                                        formulary_mhd *_Nonnull functions) {
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) return dlerror();
#define FORMULARY_MHD_RESOLVE(name) \
    if ((functions->name = (__typeof__(name) *)dlsym(handle, #name)) == NULL) { \
        const char *reason = dlerror(); \
        return reason ? reason : "a function of libmicrohttpd is missing"; \
    }
    FORMULARY_MHD_FUNCTIONS(FORMULARY_MHD_RESOLVE)
#undef FORMULARY_MHD_RESOLVE
    return NULL;
}

// libmicrohttpd's start and info calls are variadic, which Swift cannot call: these fixed
// forms pass the options Formulary uses, through the table `mhd`.

/// Starts a daemon with its own polling thread and a pool of `threads` threads, bound to
/// `address`, calling `notify` when a connection opens and closes (its socket context is
/// Formulary's state of the connection), `uri_log` when a request's first line has arrived
/// (what it returns is the request's state for `handler`), `handler` once the headers are
/// in and for each piece of the body, and `completed` when the request ends. At most
/// `connection_limit` connections in all and `per_ip_connection_limit` from one address;
/// one idle for `timeout_seconds` is closed; each reads into a pool of
/// `connection_memory_limit` bytes.
static inline struct MHD_Daemon *formulary_mhd_start(
    const formulary_mhd *_Nonnull mhd, unsigned int flags, const struct sockaddr *address,
    MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, void *completed_context,
    void *(*uri_log)(void *context, const char *uri, struct MHD_Connection *connection), void *uri_log_context,
    MHD_NotifyConnectionCallback notify, void *notify_context,
    unsigned int threads, unsigned int timeout_seconds, unsigned int connection_limit,
    unsigned int per_ip_connection_limit, size_t connection_memory_limit) {
    return mhd->MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_log, uri_log_context,
                            MHD_OPTION_NOTIFY_CONNECTION, notify, notify_context,
                            MHD_OPTION_THREAD_POOL_SIZE, threads,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_connection_limit,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
                            MHD_OPTION_END);
}

/// The connection's socket (-1 when unknown).
static inline int formulary_mhd_socket(const formulary_mhd *_Nonnull mhd, struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = mhd->MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

/// What the connection's notify callback stored as its socket context (NULL when none).
static inline void *formulary_mhd_socket_context(const formulary_mhd *_Nonnull mhd, struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = mhd->MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

/// The size in bytes of the request's line and headers, once they are in (0 before).
static inline size_t formulary_mhd_head_size(const formulary_mhd *_Nonnull mhd, struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = mhd->MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info ? info->header_size : 0;
}

/// The port the daemon listens on (0 when unknown).
static inline uint16_t formulary_mhd_port(const formulary_mhd *_Nonnull mhd, struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = mhd->MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}
