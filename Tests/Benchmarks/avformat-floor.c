/* The floor hlscheck's segment reading is measured against (Tests/Benchmarks/parts/40-big-segment.sh):
 * libavformat's own file protocol opening one segment and reading every packet, nothing else.
 * Built by the bench part with: cc avformat-floor.c $(pkg-config --cflags --libs libavformat libavcodec libavutil) */
#include <libavformat/avformat.h>
#include <stdio.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s SEGMENT\n", argv[0]);
        return 64;
    }
    AVFormatContext *format = NULL;
    int status = avformat_open_input(&format, argv[1], NULL, NULL);
    if (status < 0) {
        fprintf(stderr, "%s: cannot open (%s)\n", argv[1], av_err2str(status));
        return 2;
    }
    AVPacket *packet = av_packet_alloc();
    long long packets = 0, bytes = 0;
    while (av_read_frame(format, packet) >= 0) {
        packets++;
        bytes += packet->size;
        av_packet_unref(packet);
    }
    printf("%lld packets, %lld payload bytes\n", packets, bytes);
    av_packet_free(&packet);
    avformat_close_input(&format);
    return 0;
}
