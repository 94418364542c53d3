# Sourced by the bench parts that serve a stream over loopback HTTP (50-remote-loopback,
# 65-repeated-segments): nginx on a free 127.0.0.1 port, every path under STATE (no root-owned
# file is touched; run as root, its worker drops to nobody, hence the world-readable ROOT — the
# caller makes the folders above ROOT passable).
#
#   start_nginx ROOT STATE ACCESS_LOG PROBE
#     ROOT: the folder served; STATE: nginx's own files; ACCESS_LOG: a file, or "off";
#     PROBE: a path under ROOT fetched until nginx answers.
#   Sets nginx_port and nginx_pid; exits the part with nginx's error log when it does not start.
start_nginx() {
    local root=$1 state=$2 access=$3 probe=$4
    local nginx
    nginx=$(command -v nginx || echo /usr/sbin/nginx)
    mkdir -p "$state"
    chmod -R a+rX "$root"
    nginx_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
    cat > "$state/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $state/nginx.pid;
error_log $state/error.log warn;
events { worker_connections 256; }
http {
    access_log $access;
    client_body_temp_path $state/body;
    proxy_temp_path $state/proxy;
    fastcgi_temp_path $state/fastcgi;
    uwsgi_temp_path $state/uwsgi;
    scgi_temp_path $state/scgi;
    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    keepalive_timeout 60s;
    keepalive_requests 100000;
    types { application/vnd.apple.mpegurl m3u8; video/mp2t ts; }
    default_type application/octet-stream;
    server {
        listen 127.0.0.1:$nginx_port;
        root $root;
    }
}
CONF
    "$nginx" -p "$state" -c "$state/nginx.conf" -e "$state/error.log" &
    nginx_pid=$!
    for _ in $(seq 50); do curl -fs "http://127.0.0.1:$nginx_port/$probe" >/dev/null 2>&1 && break; sleep 0.1; done
    curl -fs "http://127.0.0.1:$nginx_port/$probe" >/dev/null || { echo "bench: nginx did not start:" >&2; cat "$state/error.log" >&2; exit 1; }
}
