internal import CFFmpeg

/// An `AVIOContext` that reads from a byte array in memory, so segments fetched by any
/// ``SegmentByteSource`` (and init+fragment pairs concatenated in memory) can be demuxed
/// without temporary files. Owns the context and its buffer; frees both in `deinit`.
/// Not Sendable: it lives and dies inside one synchronous inspection.
final class MemoryInput {
    private let bytes: [UInt8]
    private var position = 0
    private(set) var context: UnsafeMutablePointer<AVIOContext>?

    private static let bufferSize: Int32 = 32 * 1024

    init(bytes: [UInt8]) throws(LibAVError) {
        self.bytes = bytes
        guard let buffer = av_malloc(Int(Self.bufferSize)) else {
            throw LibAV.nullResult("av_malloc")
        }
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        guard let context = avio_alloc_context(
            buffer.assumingMemoryBound(to: UInt8.self), Self.bufferSize, 0, opaque,
            memoryInputRead, nil, memoryInputSeek
        ) else {
            av_free(buffer)
            throw LibAV.nullResult("avio_alloc_context")
        }
        self.context = context
    }

    deinit {
        if let context {
            // libav may have replaced the buffer it was given; free whichever it holds now.
            av_freep(&context.pointee.buffer)
        }
        avio_context_free(&context)
    }

    fileprivate func read(into destination: UnsafeMutablePointer<UInt8>, capacity: Int) -> Int32 {
        let available = bytes.count - position
        guard available > 0 else { return hls_averror_eof() }
        let count = min(available, capacity)
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress {
                destination.update(from: base + position, count: count)
            }
        }
        position += count
        return Int32(count)
    }

    fileprivate func seek(offset: Int64, whence: Int32) -> Int64 {
        let size = Int64(bytes.count)
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
// libav's opaque pointer, which MemoryInput's own lifetime keeps valid.
private func memoryInputRead(
    _ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ size: Int32
) -> Int32 {
    guard let opaque, let buffer, size > 0 else { return hls_averror(EINVAL) }
    let input = Unmanaged<MemoryInput>.fromOpaque(opaque).takeUnretainedValue()
    return input.read(into: buffer, capacity: Int(size))
}

private func memoryInputSeek(_ opaque: UnsafeMutableRawPointer?, _ offset: Int64, _ whence: Int32) -> Int64 {
    guard let opaque else { return Int64(hls_averror(EINVAL)) }
    let input = Unmanaged<MemoryInput>.fromOpaque(opaque).takeUnretainedValue()
    return input.seek(offset: offset, whence: whence)
}
