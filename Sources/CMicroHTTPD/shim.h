#include <stdint.h>
#include <stddef.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <microhttpd.h>

// libmicrohttpd's start and info calls are variadic, which Swift cannot call: these fixed
// forms pass the options Formulary uses.

/// Starts a daemon with its own polling thread and a pool of `threads` threads, bound to
/// `address`, calling `uri_log` when a request's first line has arrived (what it returns
/// is the request's state for `handler`), `handler` once the headers are in and for each
/// piece of the body, and `completed` when the request ends. At most
/// `connection_limit` connections in all and `per_ip_connection_limit` from one address;
/// one idle for `timeout_seconds` is closed.
static inline struct MHD_Daemon *formulary_mhd_start(
    unsigned int flags, const struct sockaddr *address,
    MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, void *completed_context,
    void *(*uri_log)(void *context, const char *uri, struct MHD_Connection *connection), void *uri_log_context,
    unsigned int threads, unsigned int timeout_seconds, unsigned int connection_limit,
    unsigned int per_ip_connection_limit, size_t connection_memory_limit) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_log, uri_log_context,
                            MHD_OPTION_THREAD_POOL_SIZE, threads,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_connection_limit,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
                            MHD_OPTION_END);
}

/// The port the daemon listens on (0 when unknown).
static inline uint16_t formulary_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}
