// How FoundationNetworking watches libcurl's sockets, corrected so that a transfer waiting for data sleeps; and
// libcurl's body decoding, turned off so that podarchive decodes (and judges) compressed bodies itself.
#ifndef CCURLSOCKETS_H
#define CCURLSOCKETS_H

/// Whether URLSessions made from now on get the correction (nonzero, the default) or FoundationNetworking's own
/// socket watching (0). Only the benchmark's bare-URLSession reference turns it off.
void podarchive_curl_sockets_correct(int enabled);

/// How many times libcurl was asked to act on a socket or a timer (`curl_multi_socket_action`) in this process:
/// each is one wake-up of the transfers. 0 where FoundationNetworking does not use libcurl.
unsigned long long podarchive_curl_socket_actions(void);

/// How many socket watches were renewed because libcurl stopped asking for one of readable or writable.
unsigned long long podarchive_curl_socket_watches_renewed(void);

/// Nonzero once FoundationNetworking configured a transfer through this file's `curl_easy_setopt` (with libcurl's
/// body decoding turned off): bodies then arrive as the server sent them, `Content-Encoding` and all. 0 where
/// FoundationNetworking does not use libcurl (macOS), or where the program was linked without exporting it.
int podarchive_curl_hands_over_encoded_bodies(void);

#endif
