internal import CFFmpeg
internal import MediaFormats

/// An `AVIOContext` whose read and seek callbacks serve a ``RandomAccessBytes`` (a file region,
/// an EXT-X-BYTERANGE served by seeking, a decrypting view, bytes fetched into memory, an init
/// section followed by its fragment) through one fixed buffer, so libavformat demuxes a segment
/// of any size in bounded memory. Owns the context and its buffer; frees both in `deinit`.
/// Not Sendable: it lives and dies inside one synchronous inspection.
final class ReaderInput {
    private let source: any RandomAccessBytes
    private let size: Int
    private var position = 0
    private let gauge: BufferGauge?
    /// Sees every byte read, where it was read (the TS scanner, fed from libavformat's reads).
    private let feed: ScanFeed?
    private(set) var context: UnsafeMutablePointer<AVIOContext>?
    /// The first read failure; libav sees it as EIO and ends the demux.
    private(set) var failure: ByteReadError?

    /// libav's own file protocol reads 32 KiB at a time; twice that halves the calls.
    static let bufferSize: Int32 = 64 * 1024

    init(_ source: any RandomAccessBytes, gauge: BufferGauge? = nil, feed: ScanFeed? = nil) throws(LibAVError) {
        self.source = source
        self.size = source.count
        self.gauge = gauge
        self.feed = feed
        guard let buffer = av_malloc(Int(Self.bufferSize)) else {
            throw LibAV.nullResult("av_malloc")
        }
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        guard
            let context = avio_alloc_context(
                buffer.assumingMemoryBound(to: UInt8.self), Self.bufferSize, 0, opaque,
                readerInputRead, nil, readerInputSeek
            )
        else {
            av_free(buffer)
            throw LibAV.nullResult("avio_alloc_context")
        }
        self.context = context
        gauge?.hold(Int(Self.bufferSize))
    }

    deinit {
        if let context {
            // libav may have replaced the buffer it was given; free whichever it holds now.
            av_freep(&context.pointee.buffer)
            gauge?.release(Int(Self.bufferSize))
        }
        avio_context_free(&context)
    }

    fileprivate func read(into destination: UnsafeMutablePointer<UInt8>, capacity: Int) -> Int32 {
        guard failure == nil else { return hls_averror(EIO) }
        guard position < size else { return hls_averror_eof() }
        do {
            let count = try source.read(
                at: position, into: UnsafeMutableRawBufferPointer(start: destination, count: capacity))
            guard count > 0 else { return hls_averror_eof() }
            feed?.observe(UnsafeRawBufferPointer(start: destination, count: count), at: position)
            position += count
            return Int32(count)
        } catch {
            failure = error
            return hls_averror(EIO)
        }
    }

    fileprivate func seek(offset: Int64, whence: Int32) -> Int64 {
        let size = Int64(self.size)
        if whence & AVSEEK_SIZE != 0 { return size }
        // Offsets come from demuxers reading hostile files: an absurd one is an error, not a trap.
        let base: Int64
        switch whence & ~AVSEEK_FORCE {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = Int64(position)
        case SEEK_END: base = size
        default: return Int64(hls_averror(EINVAL))
        }
        let (target, overflow) = base.addingReportingOverflow(offset)
        guard !overflow, target >= 0, target <= size else { return Int64(hls_averror(EINVAL)) }
        position = Int(target)
        return target
    }
}

// The callbacks are plain C functions (no captured context): the instance travels through
// libav's opaque pointer, which ReaderInput's own lifetime keeps valid.
private func readerInputRead(
    _ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ size: Int32
) -> Int32 {
    guard let opaque, let buffer, size > 0 else { return hls_averror(EINVAL) }
    let input = Unmanaged<ReaderInput>.fromOpaque(opaque).takeUnretainedValue()
    return input.read(into: buffer, capacity: Int(size))
}

private func readerInputSeek(_ opaque: UnsafeMutableRawPointer?, _ offset: Int64, _ whence: Int32) -> Int64 {
    guard let opaque else { return Int64(hls_averror(EINVAL)) }
    let input = Unmanaged<ReaderInput>.fromOpaque(opaque).takeUnretainedValue()
    return input.seek(offset: offset, whence: whence)
}
