/* The floor for segment inspection: open each file with libavformat (format forced to mpegts,
 * as hlscheck does) and read every packet, one thread, nothing else. Part of `make bench`. */
#include <libavformat/avformat.h>
#include <stdio.h>

int main(int argc, char **argv) {
    const AVInputFormat *format = av_find_input_format("mpegts");
    long packets = 0, bytes = 0;
    AVPacket *packet = av_packet_alloc();
    av_log_set_level(AV_LOG_QUIET);
    for (int i = 1; i < argc; i++) {
        AVFormatContext *context = NULL;
        if (avformat_open_input(&context, argv[i], format, NULL) < 0) { fprintf(stderr, "%s: cannot open\n", argv[i]); return 1; }
        while (av_read_frame(context, packet) >= 0) {
            packets++;
            bytes += packet->size;
            av_packet_unref(packet);
        }
        avformat_close_input(&context);
    }
    av_packet_free(&packet);
    printf("%d files, %ld packets, %ld bytes\n", argc - 1, packets, bytes);
    return 0;
}
