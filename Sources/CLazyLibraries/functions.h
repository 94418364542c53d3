// Every FFmpeg, libxml2, libcurl and zlib function hlscheck calls, one line each, for LazyLibraries.c:
//   F(library, return type, name, (parameters), (arguments))   a function returning a value
//   V(library, name, (parameters), (arguments))                a function returning void
// The parameter lists must match the headers exactly: each stub is a definition of the header's
// own declaration, so a mismatch is a compile error. A function missing here still works (the
// linker takes it from the shared library) but brings the library back into the executable's
// DT_NEEDED, and start-up slows down again; hlscheckTests' StartupTests says so.
#define HLS_LAZY_FUNCTIONS(F, V) \
    F(avutil, struct AVAES *, av_aes_alloc, (void), ()) \
    V(avutil, av_aes_crypt, (struct AVAES * a0, uint8_t * a1, const uint8_t * a2, int a3, uint8_t * a4, int a5), (a0, a1, a2, a3, a4, a5)) \
    F(avutil, int, av_aes_init, (struct AVAES * a0, const uint8_t * a1, int a2, int a3), (a0, a1, a2, a3)) \
    F(avutil, AVAudioFifo *, av_audio_fifo_alloc, (enum AVSampleFormat a0, int a1, int a2), (a0, a1, a2)) \
    V(avutil, av_audio_fifo_free, (AVAudioFifo * a0), (a0)) \
    F(avutil, int, av_audio_fifo_read, (AVAudioFifo * a0, void ** a1, int a2), (a0, a1, a2)) \
    F(avutil, int, av_audio_fifo_size, (AVAudioFifo * a0), (a0)) \
    F(avutil, int, av_audio_fifo_write, (AVAudioFifo * a0, void ** a1, int a2), (a0, a1, a2)) \
    F(avutil, int, av_channel_layout_copy, (AVChannelLayout * a0, const AVChannelLayout * a1), (a0, a1)) \
    V(avutil, av_channel_layout_default, (AVChannelLayout * a0, int a1), (a0, a1)) \
    V(avutil, av_channel_layout_uninit, (AVChannelLayout * a0), (a0)) \
    V(avutil, av_dict_free, (AVDictionary ** a0), (a0)) \
    F(avutil, int, av_dict_set, (AVDictionary ** a0, const char * a1, const char * a2, int a3), (a0, a1, a2, a3)) \
    F(avutil, AVFrame *, av_frame_alloc, (void), ()) \
    V(avutil, av_frame_free, (AVFrame ** a0), (a0)) \
    V(avutil, av_frame_move_ref, (AVFrame * a0, AVFrame * a1), (a0, a1)) \
    F(avutil, int, av_frame_get_buffer, (AVFrame * a0, int a1), (a0, a1)) \
    V(avutil, av_frame_unref, (AVFrame * a0), (a0)) \
    V(avutil, av_free, (void * a0), (a0)) \
    V(avutil, av_freep, (void * a0), (a0)) \
    F(avutil, int, av_log_format_line2, (void * a0, int a1, const char * a2, va_list a3, char * a4, int a5, int * a6), (a0, a1, a2, a3, a4, a5, a6)) \
    V(avutil, av_log_set_callback, (void (*a0)(void *, int, const char *, va_list)), (a0)) \
    V(avutil, av_log_set_level, (int a0), (a0)) \
    F(avutil, void *, av_malloc, (size_t a0), (a0)) \
    F(avutil, void *, av_mallocz, (size_t a0), (a0)) \
    F(avutil, int, av_opt_set, (void * a0, const char * a1, const char * a2, int a3), (a0, a1, a2, a3)) \
    F(avutil, const AVPixFmtDescriptor *, av_pix_fmt_desc_get, (enum AVPixelFormat a0), (a0)) \
    F(avutil, int64_t, av_rescale_q, (int64_t a0, AVRational a1, AVRational a2), (a0, a1, a2)) \
    F(avutil, int, av_samples_alloc, (uint8_t ** a0, int * a1, int a2, int a3, enum AVSampleFormat a4, int a5), (a0, a1, a2, a3, a4, a5)) \
    F(avutil, int, av_strerror, (int a0, char * a1, size_t a2), (a0, a1, a2)) \
    F(avcodec, int, av_new_packet, (AVPacket * a0, int a1), (a0, a1)) \
    F(avcodec, AVPacket *, av_packet_alloc, (void), ()) \
    V(avcodec, av_packet_free, (AVPacket ** a0), (a0)) \
    F(avcodec, int, av_packet_ref, (AVPacket * a0, const AVPacket * a1), (a0, a1)) \
    V(avcodec, av_packet_unref, (AVPacket * a0), (a0)) \
    F(avcodec, AVCodecContext *, avcodec_alloc_context3, (const AVCodec * a0), (a0)) \
    F(avcodec, const AVCodec *, avcodec_find_decoder, (enum AVCodecID a0), (a0)) \
    F(avcodec, const AVCodec *, avcodec_find_encoder, (enum AVCodecID a0), (a0)) \
    F(avcodec, const AVCodec *, avcodec_find_encoder_by_name, (const char * a0), (a0)) \
    V(avcodec, avcodec_free_context, (AVCodecContext ** a0), (a0)) \
    F(avcodec, const AVClass *, avcodec_get_class, (void), ()) \
    F(avcodec, const char *, avcodec_get_name, (enum AVCodecID a0), (a0)) \
    F(avcodec, int, avcodec_open2, (AVCodecContext * a0, const AVCodec * a1, AVDictionary ** a2), (a0, a1, a2)) \
    F(avcodec, int, avcodec_parameters_to_context, (AVCodecContext * a0, const AVCodecParameters * a1), (a0, a1)) \
    F(avcodec, int, avcodec_receive_frame, (AVCodecContext * a0, AVFrame * a1), (a0, a1)) \
    F(avcodec, int, avcodec_receive_packet, (AVCodecContext * a0, AVPacket * a1), (a0, a1)) \
    F(avcodec, int, avcodec_send_frame, (AVCodecContext * a0, const AVFrame * a1), (a0, a1)) \
    F(avcodec, int, avcodec_send_packet, (AVCodecContext * a0, const AVPacket * a1), (a0, a1)) \
    F(avformat, const AVInputFormat *, av_find_input_format, (const char * a0), (a0)) \
    F(avformat, int, av_read_frame, (AVFormatContext * a0, AVPacket * a1), (a0, a1)) \
    F(avformat, int, av_write_frame, (AVFormatContext * a0, AVPacket * a1), (a0, a1)) \
    F(avformat, int, av_write_trailer, (AVFormatContext * a0), (a0)) \
    F(avformat, AVFormatContext *, avformat_alloc_context, (void), ()) \
    F(avformat, int, avformat_alloc_output_context2, (AVFormatContext ** a0, const AVOutputFormat * a1, const char * a2, const char * a3), (a0, a1, a2, a3)) \
    V(avformat, avformat_close_input, (AVFormatContext ** a0), (a0)) \
    F(avformat, int, avformat_find_stream_info, (AVFormatContext * a0, AVDictionary ** a1), (a0, a1)) \
    V(avformat, avformat_free_context, (AVFormatContext * a0), (a0)) \
    F(avformat, AVStream *, avformat_new_stream, (AVFormatContext * a0, const AVCodec * a1), (a0, a1)) \
    F(avformat, int, avformat_open_input, (AVFormatContext ** a0, const char * a1, const AVInputFormat * a2, AVDictionary ** a3), (a0, a1, a2, a3)) \
    F(avformat, int, avformat_write_header, (AVFormatContext * a0, AVDictionary ** a1), (a0, a1)) \
    F(avformat, AVIOContext *, avio_alloc_context, (unsigned char * a0, int a1, int a2, void * a3, int (*a4)(void *, uint8_t *, int), int (*a5)(void *, uint8_t *, int), int64_t (*a6)(void *, int64_t, int)), (a0, a1, a2, a3, a4, a5, a6)) \
    F(avformat, int, avio_close_dyn_buf, (AVIOContext * a0, uint8_t ** a1), (a0, a1)) \
    V(avformat, avio_context_free, (AVIOContext ** a0), (a0)) \
    V(avformat, avio_flush, (AVIOContext * a0), (a0)) \
    F(avformat, int, avio_open_dyn_buf, (AVIOContext ** a0), (a0)) \
    V(swscale, sws_freeContext, (struct SwsContext * a0), (a0)) \
    F(swscale, struct SwsContext *, sws_getContext, (int a0, int a1, enum AVPixelFormat a2, int a3, int a4, enum AVPixelFormat a5, int a6, SwsFilter * a7, SwsFilter * a8, const double * a9), (a0, a1, a2, a3, a4, a5, a6, a7, a8, a9)) \
    F(swscale, int, sws_scale_frame, (struct SwsContext * a0, AVFrame * a1, const AVFrame * a2), (a0, a1, a2)) \
    F(swresample, int, swr_alloc_set_opts2, (struct SwrContext ** a0, AVChannelLayout * a1, enum AVSampleFormat a2, int a3, AVChannelLayout * a4, enum AVSampleFormat a5, int a6, int a7, void * a8), (a0, a1, a2, a3, a4, a5, a6, a7, a8)) \
    F(swresample, int, swr_convert, (struct SwrContext * a0, uint8_t ** a1, int a2, const uint8_t ** a3, int a4), (a0, a1, a2, a3, a4)) \
    V(swresample, swr_free, (struct SwrContext ** a0), (a0)) \
    F(swresample, int, swr_get_out_samples, (struct SwrContext * a0, int a1), (a0, a1)) \
    F(swresample, int, swr_init, (struct SwrContext * a0), (a0)) \
    F(xml2, htmlDocPtr, htmlReadMemory, (const char * a0, int a1, const char * a2, const char * a3, int a4), (a0, a1, a2, a3, a4)) \
    F(xml2, const xmlChar *, xmlBufferContent, (const xmlBuffer * a0), (a0)) \
    F(xml2, xmlBufferPtr, xmlBufferCreate, (void), ()) \
    V(xml2, xmlBufferFree, (xmlBufferPtr a0), (a0)) \
    F(xml2, int, xmlBufferLength, (const xmlBuffer * a0), (a0)) \
    F(xml2, xmlNodePtr, xmlDocGetRootElement, (const xmlDoc * a0), (a0)) \
    V(xml2, xmlFreeDoc, (xmlDocPtr a0), (a0)) \
    V(xml2, xmlFreeTextWriter, (xmlTextWriterPtr a0), (a0)) \
    F(xml2, xmlChar *, xmlGetProp, (const xmlNode * a0, const xmlChar * a1), (a0, a1)) \
    V(xml2, xmlInitParser, (void), ()) \
    F(xml2, xmlTextWriterPtr, xmlNewTextWriter, (xmlOutputBufferPtr a0), (a0)) \
    F(xml2, xmlTextWriterPtr, xmlNewTextWriterMemory, (xmlBufferPtr a0, int a1), (a0, a1)) \
    F(xml2, xmlOutputBufferPtr, xmlOutputBufferCreateIO, (xmlOutputWriteCallback a0, xmlOutputCloseCallback a1, void * a2, xmlCharEncodingHandlerPtr a3), (a0, a1, a2, a3)) \
    F(xml2, xmlChar *, xmlNodeGetContent, (const xmlNode * a0), (a0)) \
    F(xml2, xmlDocPtr, xmlReadMemory, (const char * a0, int a1, const char * a2, const char * a3, int a4), (a0, a1, a2, a3, a4)) \
    V(xml2, xmlSchemaFree, (xmlSchemaPtr a0), (a0)) \
    V(xml2, xmlSchemaFreeParserCtxt, (xmlSchemaParserCtxtPtr a0), (a0)) \
    V(xml2, xmlSchemaFreeValidCtxt, (xmlSchemaValidCtxtPtr a0), (a0)) \
    F(xml2, xmlSchemaParserCtxtPtr, xmlSchemaNewParserCtxt, (const char * a0), (a0)) \
    F(xml2, xmlSchemaValidCtxtPtr, xmlSchemaNewValidCtxt, (xmlSchemaPtr a0), (a0)) \
    F(xml2, xmlSchemaPtr, xmlSchemaParse, (xmlSchemaParserCtxtPtr a0), (a0)) \
    V(xml2, xmlSchemaSetValidStructuredErrors, (xmlSchemaValidCtxtPtr a0, xmlStructuredErrorFunc a1, void * a2), (a0, a1, a2)) \
    F(xml2, int, xmlSchemaValidateDoc, (xmlSchemaValidCtxtPtr a0, xmlDocPtr a1), (a0, a1)) \
    F(xml2, int, xmlTextWriterEndDTD, (xmlTextWriterPtr a0), (a0)) \
    F(xml2, int, xmlTextWriterEndDocument, (xmlTextWriterPtr a0), (a0)) \
    F(xml2, int, xmlTextWriterEndElement, (xmlTextWriterPtr a0), (a0)) \
    F(xml2, int, xmlTextWriterFlush, (xmlTextWriterPtr a0), (a0)) \
    F(xml2, int, xmlTextWriterFullEndElement, (xmlTextWriterPtr a0), (a0)) \
    F(xml2, int, xmlTextWriterSetIndent, (xmlTextWriterPtr a0, int a1), (a0, a1)) \
    F(xml2, int, xmlTextWriterSetIndentString, (xmlTextWriterPtr a0, const xmlChar * a1), (a0, a1)) \
    F(xml2, int, xmlTextWriterStartDTD, (xmlTextWriterPtr a0, const xmlChar * a1, const xmlChar * a2, const xmlChar * a3), (a0, a1, a2, a3)) \
    F(xml2, int, xmlTextWriterStartDocument, (xmlTextWriterPtr a0, const char * a1, const char * a2, const char * a3), (a0, a1, a2, a3)) \
    F(xml2, int, xmlTextWriterStartElement, (xmlTextWriterPtr a0, const xmlChar * a1), (a0, a1)) \
    F(xml2, int, xmlTextWriterWriteAttribute, (xmlTextWriterPtr a0, const xmlChar * a1, const xmlChar * a2), (a0, a1, a2)) \
    F(xml2, int, xmlTextWriterWriteRaw, (xmlTextWriterPtr a0, const xmlChar * a1), (a0, a1)) \
    F(xml2, int, xmlTextWriterWriteString, (xmlTextWriterPtr a0, const xmlChar * a1), (a0, a1)) \
    F(curl, CURLcode, curl_global_init, (long a0), (a0)) \
    F(curl, CURL *, curl_easy_init, (void), ()) \
    V(curl, curl_easy_cleanup, (CURL * a0), (a0)) \
    F(curl, const char *, curl_easy_strerror, (CURLcode a0), (a0)) \
    F(curl, struct curl_slist *, curl_slist_append, (struct curl_slist * a0, const char * a1), (a0, a1)) \
    V(curl, curl_slist_free_all, (struct curl_slist * a0), (a0)) \
    F(curl, CURLM *, curl_multi_init, (void), ()) \
    F(curl, CURLMcode, curl_multi_cleanup, (CURLM * a0), (a0)) \
    F(curl, CURLMcode, curl_multi_add_handle, (CURLM * a0, CURL * a1), (a0, a1)) \
    F(curl, CURLMcode, curl_multi_remove_handle, (CURLM * a0, CURL * a1), (a0, a1)) \
    F(curl, CURLMcode, curl_multi_perform, (CURLM * a0, int * a1), (a0, a1)) \
    F(curl, CURLMcode, curl_multi_poll, (CURLM * a0, struct curl_waitfd a1[], unsigned int a2, int a3, int * a4), (a0, a1, a2, a3, a4)) \
    F(curl, CURLMcode, curl_multi_wakeup, (CURLM * a0), (a0)) \
    F(curl, CURLMsg *, curl_multi_info_read, (CURLM * a0, int * a1), (a0, a1)) \
    F(z, int, inflateInit2_, (z_streamp a0, int a1, const char * a2, int a3), (a0, a1, a2, a3)) \
    F(z, int, inflate, (z_streamp a0, int a1), (a0, a1)) \
    F(z, int, inflateEnd, (z_streamp a0), (a0))

// Variadic functions (curl's setopt and getinfo): looked up like the others, called only through
// the typed wrappers at the end of LazyLibraries.c (declared in Sources/CCurl/shim.h).
#define HLS_LAZY_VARIADIC(L) \
    L(curl, curl_easy_setopt) \
    L(curl, curl_easy_getinfo) \
    L(curl, curl_multi_setopt)

