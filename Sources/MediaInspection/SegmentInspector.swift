package import MediaFormats
import StreamSources

/// Inspects media segments: libavformat for tracks and timing, MediaFormats for ID3 (which
/// libavformat 5.1 reads only partly, design.md §6). Sendable; every libav object it creates
/// lives inside one synchronous call, so inspections can run concurrently.
package struct SegmentInspector: Sendable {
    /// Where segment, init section and key bytes come from.
    package let source: any SegmentByteSource
    /// Posters declaring more pixels than this are not decoded (their facts say why).
    package var maximumImagePixels: Int
    /// ID3 tags larger than this are reported, not parsed.
    package var maximumID3Bytes: Int
    /// Posters already decoded, shared by every inspection of this inspector (and of those
    /// `reading(from:)` makes).
    let decodedImages: DecodedImages
    /// Where segments read whole are kept for the next reader (`hlscheck embed`'s rewrite);
    /// nil: nothing is kept, and every segment is read where it is asked for.
    package var keeper: SegmentBytesKeeper?

    /// Makes an inspector; the limits default to `ImageHeader.defaultMaximumPixels` pixels and
    /// `EmbeddedID3.maximumPESSize` bytes.
    package init(
        source: any SegmentByteSource, maximumImagePixels: Int = ImageHeader.defaultMaximumPixels,
        maximumID3Bytes: Int = EmbeddedID3.maximumPESSize
    ) {
        self.init(
            source: source, maximumImagePixels: maximumImagePixels, maximumID3Bytes: maximumID3Bytes,
            decodedImages: DecodedImages())
    }

    private init(
        source: any SegmentByteSource, maximumImagePixels: Int, maximumID3Bytes: Int, decodedImages: DecodedImages
    ) {
        self.source = source
        self.maximumImagePixels = maximumImagePixels
        self.maximumID3Bytes = maximumID3Bytes
        self.decodedImages = decodedImages
    }

    /// The same inspector reading from `source` (``SegmentByteSource/readingAhead(_:_:)``).
    package func reading(from source: any SegmentByteSource) -> SegmentInspector {
        var inspector = SegmentInspector(
            source: source, maximumImagePixels: maximumImagePixels, maximumID3Bytes: maximumID3Bytes,
            decodedImages: decodedImages)
        inspector.keeper = keeper
        return inspector
    }

    /// What a source that fetches whole bodies is assumed to hold per segment when no byte
    /// range says how much: a 6-second segment of 1080p video.
    package static let typicalSegmentBytes = 8 << 20

    /// Facts about one segment. Throws only when its bytes cannot be read; a segment that does
    /// not demux yields facts whose `problem` says why.
    ///
    /// The segment is read through ``SegmentByteSource/open(_:range:)``: from a file, in bounded
    /// memory whatever its size (libavformat through a fixed I/O buffer, the ID3 and TS scanners
    /// through a bounded window); an AES-128 segment is decrypted where it is read.
    package func inspect(_ request: SegmentRequest) async throws -> SegmentFacts {
        try await inspect(request, gauge: nil)
    }

    /// `gauge` records the most bytes the inspection's buffers held at once (for tests).
    func inspect(_ request: SegmentRequest, gauge: BufferGauge?) async throws -> SegmentFacts {
        if let refusal = request.refusal { throw InputReadError(uri: request.uri, reason: refusal) }
        var segment = try await source.open(request.uri, range: request.range)
        let initBytes = try await openInitSection(request)
        guard let decryption = request.decryption else {
            // For a keeper, a small segment is read whole, with one read: the sniff, libavformat
            // and the scanners then read it from memory, and the keeper may hold it for its next
            // reader (each would otherwise read the file again).
            var whole: [UInt8]?
            if let keeper, segment.count <= keeper.maximumSegmentBytes {
                do {
                    whole = try segment.bytes(at: 0, length: segment.count)
                } catch {
                    throw InputReadError(uri: request.uri, reason: error.reason)
                }
                segment = InMemoryBytes(whole ?? [])
            }
            // A TS segment is read once, for libavformat and the scanners together; the
            // scanners of the other containers read their own way, beside libavformat.
            let sniffed = ContainerSniffer.container(
                uri: request.uri, source: segment, hasInitSection: initBytes != nil)
            var facts: SegmentFacts
            if gauge == nil, segment.count >= Self.concurrentPassesThreshold, sniffed.0 != .mpegTS, sniffed.0 != .webVTT
            {
                facts = try await Self.inspectConcurrently(
                    uri: request.uri, segment: segment, initSection: initBytes,
                    wantsStreamInfo: request.wantsStreamInfo,
                    wantsDecode: request.wantsDecode, maximumImagePixels: maximumImagePixels,
                    maximumID3Bytes: maximumID3Bytes,
                    sniffed: sniffed, images: decodedImages)
            } else {
                facts = try Self.inspect(
                    uri: request.uri, segment: segment, initSection: initBytes,
                    wantsStreamInfo: request.wantsStreamInfo,
                    wantsDecode: request.wantsDecode, maximumImagePixels: maximumImagePixels,
                    maximumID3Bytes: maximumID3Bytes,
                    gauge: gauge, sniffed: sniffed, images: decodedImages)
            }
            // bis-22 §6.2.3: an encrypted segment has an EXT-X-KEY. Bytes that do not demux and
            // look like ciphertext are most likely one without.
            if let problem = facts.problem, EncryptionEvidence.looksEncrypted(segment) {
                facts.problem =
                    problem
                    + "; its bytes look encrypted (whole 16-byte blocks, no container structure, byte values spread as evenly as random ones), but no EXT-X-KEY applies to it: an encrypted segment needs an EXT-X-KEY with the URI of its key (bis-22 §6.2.3)"
            }
            if let keeper, let whole { keeper.offer(whole, of: request, facts: facts) }
            return facts
        }
        // The downloaded (encrypted) size is what counts for bit rate; the content is the clear text.
        var hidden = SegmentFacts(uri: request.uri, byteCount: segment.count, container: .unknown)
        // bis-22 §6.2.3: a clear segment is under METHOD=NONE or before the first EXT-X-KEY. AES-128
        // ciphertext has no container structure; bytes that plainly have one were never encrypted.
        if let clear = EncryptionEvidence.clearContainer(segment) {
            hidden.problem =
                "is not encrypted: its bytes are plain \(EncryptionEvidence.name(of: clear)) before any decryption, but EXT-X-KEY METHOD=AES-128 applies to it; put #EXT-X-KEY:METHOD=NONE before a clear segment, or encrypt it (bis-22 §6.2.3)"
            hidden.decryption = .decrypted
            return hidden
        }
        let key: [UInt8]
        do {
            // 16 bytes at most: a key URI is no reason to load a large file.
            key = try await source.read(decryption.keyURI, range: SegmentByteRange(offset: 0, length: 16))
        } catch {
            hidden.decryption = .keyUnavailable(
                "the key \(decryption.keyURI) cannot be read as the 16 bytes of an AES-128 key (\(error))")
            return hidden
        }
        let clear: DecryptedBytes
        do {
            clear = try DecryptedBytes(cipher: segment, key: key, iv: decryption.iv)
        } catch {
            hidden.problem = "does not decrypt with the key \(decryption.keyURI): \(error.description)"
            hidden.decryption = .decrypted
            return hidden
        }
        var facts = try Self.inspect(
            uri: request.uri, segment: clear, initSection: initBytes, wantsStreamInfo: request.wantsStreamInfo,
            wantsDecode: request.wantsDecode, maximumImagePixels: maximumImagePixels, maximumID3Bytes: maximumID3Bytes,
            gauge: gauge, images: decodedImages)
        facts.byteCount = segment.count
        facts.decryption = .decrypted
        return facts
    }

    /// Inspects `requests` with at most `maxConcurrent` in flight, and no more together than
    /// `maximumBytesInFlight` by the source's estimate of what each holds (a file is streamed
    /// through bounded buffers; a body fetched whole is held whole), and returns the outcomes in
    /// input order. One request is always admitted, whatever its estimate. Results are small values.
    package func inspectAll(
        _ requests: [SegmentRequest], maxConcurrent: Int = 2, maximumBytesInFlight: Int = 256 << 20
    ) async -> [Result<SegmentFacts, any Error>] {
        let limit = max(1, maxConcurrent)
        var results = [Result<SegmentFacts, any Error>?](repeating: nil, count: requests.count)
        let costs = requests.map { request in
            source.residentByteEstimate(request.uri, range: request.range)
                + (request.initSection.map { source.residentByteEstimate($0.uri, range: $0.range) } ?? 0)
        }
        // No nested function captures the group: a release build (Swift 6.3.1) miscompiled
        // that shape and stopped after the first segment.
        await withTaskGroup(of: (Int, Result<SegmentFacts, any Error>).self) { group in
            var next = 0, running = 0, bytesInFlight = 0
            while next < requests.count, running < limit,
                running == 0 || bytesInFlight + costs[next] <= maximumBytesInFlight
            {
                let index = next, request = requests[index]
                group.addTask { await outcome(index, request) }
                (next, running, bytesInFlight) = (next + 1, running + 1, bytesInFlight + costs[index])
            }
            while let (index, result) = await group.next() {
                results[index] = result
                (running, bytesInFlight) = (running - 1, bytesInFlight - costs[index])
                while next < requests.count, running < limit,
                    running == 0 || bytesInFlight + costs[next] <= maximumBytesInFlight
                {
                    let index = next, request = requests[index]
                    group.addTask { await outcome(index, request) }
                    (next, running, bytesInFlight) = (next + 1, running + 1, bytesInFlight + costs[index])
                }
            }
        }
        return results.map { $0 ?? .failure(InputReadError(uri: "", reason: "not inspected")) }
    }

    private func outcome(_ index: Int, _ request: SegmentRequest) async -> (Int, Result<SegmentFacts, any Error>) {
        do { return (index, .success(try await inspect(request))) } catch { return (index, .failure(error)) }
    }

    /// The APIC pictures of a segment, with their image bytes (for `hlscheck artwork --extract`).
    package func extractPictures(_ request: SegmentRequest) async throws -> [AttachedPicture] {
        let segment = try await source.open(request.uri, range: request.range)
        let (container, _) = ContainerSniffer.container(
            uri: request.uri, source: segment, hasInitSection: request.initSection != nil)
        let cursor = ByteCursor(segment)
        let tags = EmbeddedID3.tags(in: cursor, container: container.id3Container, maximumTagBytes: maximumID3Bytes)
        if let failure = cursor.failure { throw InputReadError(uri: request.uri, reason: failure.reason) }
        return
            tags
            .flatMap { $0.tag?.frames ?? [] }
            .compactMap { frame in
                if case .attachedPicture(let picture) = frame { return picture }
                return nil
            }
    }

    /// The image bytes of the segment's APIC picture whose SHA-256 is `contentHash`
    /// (`PictureFacts.contentHash`); nil when the segment no longer holds it. Reads the segment
    /// again: a report asks this once per distinct poster, never per segment.
    package func pictureBytes(_ request: SegmentRequest, contentHash: String) async throws -> [UInt8]? {
        try await extractPictures(request).first { SHA256.hexDigest($0.data) == contentHash }?.data
    }

    private func openInitSection(_ request: SegmentRequest) async throws -> (any RandomAccessBytes & Sendable)? {
        guard let initSection = request.initSection else { return nil }
        return try await source.open(initSection.uri, range: initSection.range)
    }

    /// The synchronous core over bytes in memory (tests, fuzz targets).
    static func inspect(
        uri: String, segment: [UInt8], initSection: [UInt8]?, wantsStreamInfo: Bool, wantsDecode: Bool = false,
        maximumImagePixels: Int = ImageHeader.defaultMaximumPixels, maximumID3Bytes: Int = EmbeddedID3.maximumPESSize
    ) -> SegmentFacts {
        // In-memory bytes cannot fail to read.
        (try? inspect(
            uri: uri, segment: InMemoryBytes(segment), initSection: initSection.map(InMemoryBytes.init),
            wantsStreamInfo: wantsStreamInfo,
            wantsDecode: wantsDecode, maximumImagePixels: maximumImagePixels, maximumID3Bytes: maximumID3Bytes))
            ?? SegmentFacts(uri: uri, byteCount: segment.count, container: .unknown)
    }

    /// The synchronous core: bytes in, facts out. Content problems become `problem`; throws only
    /// when the bytes stop coming (an I/O error, a file that shrank while read).
    ///
    /// In bounded memory whatever the segment's size. An MPEG-TS segment is read once:
    /// libavformat reads it through a fixed I/O buffer for tracks and timing, and the scanner
    /// (continuity counters, timed ID3) is fed the same bytes as they arrive. Other containers
    /// take two passes: libavformat's, then the ID3/emsg scanners' walk through a window.
    /// `streamInfoDecodesVideo` restores libavformat's decoding of TS video in
    /// `avformat_find_stream_info` (the reference the differential tests compare with).
    static func inspect(
        uri: String, segment: any RandomAccessBytes, initSection: (any RandomAccessBytes)?, wantsStreamInfo: Bool,
        wantsDecode: Bool = false, maximumImagePixels: Int = ImageHeader.defaultMaximumPixels,
        maximumID3Bytes: Int = EmbeddedID3.maximumPESSize, gauge: BufferGauge? = nil,
        windowSize: Int = ByteCursor.defaultWindowSize, sniffed: (SegmentContainer, problem: String?)? = nil,
        streamInfoDecodesVideo: Bool = false, images: DecodedImages? = nil
    ) throws(InputReadError) -> SegmentFacts {
        let sniffed =
            sniffed ?? ContainerSniffer.container(uri: uri, source: segment, hasInitSection: initSection != nil)
        if sniffed.0 == .webVTT { return webVTT(uri: uri, segment: segment, layoutProblem: sniffed.problem) }
        if sniffed.0 == .mpegTS {
            let feed = ScanFeed(
                scanner: TransportStreamScanner(count: segment.count, maximumTagBytes: maximumID3Bytes),
                segmentOffset: initSection?.count ?? 0)
            // An init section holds the tables that say where the timed ID3 is (a few packets;
            // what lies past the first 64 KiB is not looked at).
            if let initSection, let tables = try? initSection.bytes(at: 0, length: min(initSection.count, 1 << 16)) {
                tables.withUnsafeBytes { feed.scanner.readTables(ofInitSection: $0) }
            }
            let demuxed = try demuxPass(
                uri: uri, segment: segment, initSection: initSection, wantsStreamInfo: wantsStreamInfo,
                wantsDecode: wantsDecode,
                maximumImagePixels: maximumImagePixels, gauge: gauge, sniffed: sniffed, feed: feed,
                streamInfoDecodesVideo: streamInfoDecodesVideo)
            do {
                try feed.complete(from: segment, bufferSize: windowSize, gauge: gauge)
            } catch {
                throw InputReadError(uri: uri, reason: error.reason)
            }
            let (continuity, tags) = feed.scanner.finish()
            return finish(
                demuxed, ScanResult(found: tags, continuity: continuity), maximumImagePixels: maximumImagePixels,
                images: images)
        }
        let demuxed = try demuxPass(
            uri: uri, segment: segment, initSection: initSection, wantsStreamInfo: wantsStreamInfo,
            wantsDecode: wantsDecode,
            maximumImagePixels: maximumImagePixels, gauge: gauge, sniffed: sniffed,
            streamInfoDecodesVideo: streamInfoDecodesVideo)
        let scanned = try scanPass(
            uri: uri, segment: segment, container: demuxed.container, maximumID3Bytes: maximumID3Bytes, gauge: gauge,
            windowSize: windowSize)
        return finish(demuxed, scanned, maximumImagePixels: maximumImagePixels, images: images)
    }

    /// A WebVTT segment (RFC 8216 §3.5) is text a client downloads whole: its bytes count for bit
    /// rate like any rendition's. It is not demuxed: its cue times are mapped to the stream's
    /// timeline by its X-TIMESTAMP-MAP header, not by what libavformat would read from them, so
    /// it has no timestamps or duration of its own here. Bytes that do not start with the
    /// WebVTT signature are no WebVTT file.
    static func webVTT(uri: String, segment: any RandomAccessBytes, layoutProblem: String?) -> SegmentFacts {
        var facts = SegmentFacts(uri: uri, byteCount: segment.count, container: .webVTT)
        if ContainerSniffer.startsWithWebVTTSignature((try? segment.bytes(at: 0, length: 16)) ?? []) {
            facts.tracks = [TrackFacts(kind: .subtitles, codecName: "webvtt")]
        } else {
            facts.problem =
                layoutProblem
                ?? (segment.count == 0
                    ? "segment is empty"
                    : "does not start with the WEBVTT signature (W3C WebVTT §4.1): not a WebVTT file")
        }
        return facts
    }

    /// Segments at least this large, but for MPEG-TS (read once), are demuxed and scanned at the
    /// same time, on two cores.
    static let concurrentPassesThreshold = 16 << 20

    /// The two passes of a large segment side by side: libavformat on this task, the scanners'
    /// walk on a child task, each with its own buffers (the bytes are read twice, as in turn).
    /// The inspector takes this way for large packed audio and fMP4 segments only: an MPEG-TS
    /// segment is read once instead (tests compare the two).
    static func inspectConcurrently(
        uri: String, segment: any RandomAccessBytes & Sendable, initSection: (any RandomAccessBytes & Sendable)?,
        wantsStreamInfo: Bool, wantsDecode: Bool, maximumImagePixels: Int, maximumID3Bytes: Int,
        sniffed: (SegmentContainer, problem: String?)? = nil, images: DecodedImages? = nil
    ) async throws(InputReadError) -> SegmentFacts {
        let sniffed =
            sniffed ?? ContainerSniffer.container(uri: uri, source: segment, hasInitSection: initSection != nil)
        let container = sniffed.0
        async let scanned = Result { () throws(InputReadError) -> ScanResult in
            try scanPass(uri: uri, segment: segment, container: container, maximumID3Bytes: maximumID3Bytes)
        }
        let demuxed = Result { () throws(InputReadError) -> DemuxPassResult in
            try demuxPass(
                uri: uri, segment: segment, initSection: initSection, wantsStreamInfo: wantsStreamInfo,
                wantsDecode: wantsDecode,
                maximumImagePixels: maximumImagePixels, gauge: nil, sniffed: sniffed)
        }
        let scan = await scanned
        return finish(try demuxed.get(), try scan.get(), maximumImagePixels: maximumImagePixels, images: images)
    }

    struct DemuxPassResult {
        var facts: SegmentFacts
        var container: SegmentContainer
        var problems: [String?]
    }

    struct ScanResult: Sendable {
        var found: [FoundID3Tag] = []
        var continuity: TransportStreamContinuity?
    }

    /// libavformat's pass (and the decoder's, with `wantsDecode`): tracks, timing, problems.
    /// `sniffed` is the container and layout problem when already known; `feed` sees every
    /// byte libavformat reads.
    static func demuxPass(
        uri: String, segment: any RandomAccessBytes, initSection: (any RandomAccessBytes)?, wantsStreamInfo: Bool,
        wantsDecode: Bool, maximumImagePixels: Int, gauge: BufferGauge?,
        sniffed: (SegmentContainer, problem: String?)? = nil, feed: ScanFeed? = nil,
        streamInfoDecodesVideo: Bool = false
    ) throws(InputReadError) -> DemuxPassResult {
        LibAV.silenceLogging()
        let byteCount = segment.count
        let (container, layoutProblem) =
            sniffed
            ?? ContainerSniffer.container(uri: uri, source: segment, hasInitSection: initSection != nil)
        var facts = SegmentFacts(uri: uri, byteCount: byteCount, container: container)
        let demuxed: any RandomAccessBytes = initSection.map { ConcatenatedBytes($0, segment) } ?? segment

        // A lone fMP4 fragment would only make libav fail with "invalid data": say what is missing.
        let demux =
            layoutProblem == ContainerSniffer.needsInitSection
            ? DemuxResult()
            : try demux(
                uri: uri, source: demuxed, container: container, wantsStreamInfo: wantsStreamInfo,
                maximumImagePixels: maximumImagePixels, gauge: gauge, feed: feed,
                streamInfoDecodesVideo: streamInfoDecodesVideo)
        facts.tracks = demux.tracks
        if container == .fragmentedMP4, layoutProblem == nil {
            fragmentTiming(of: &facts.tracks, segment: segment, initSection: initSection, gauge: gauge)
        }
        facts.duration = demux.duration
        facts.firstPTS = demux.firstPTS
        facts.videoStartsWithKeyframe = demux.videoStartsWithKeyframe
        facts.keyframeHasParameterSets = demux.keyframeHasParameterSets

        var problems = [layoutProblem, demux.problem]
        if container == .mpegTS, byteCount % 188 != 0 {
            // A cut transfer: TS segments consist of whole 188-byte packets (ISO/IEC 13818-1 §2.4.3.2).
            problems.append("ends in a partial transport stream packet (\(byteCount % 188) of 188 bytes)")
        }
        if wantsDecode, layoutProblem != ContainerSniffer.needsInitSection, byteCount > 0 {
            facts.decoding = SegmentDecoder.decode(
                source: demuxed, container: container, maximumPixels: maximumImagePixels)
        }
        return DemuxPassResult(facts: facts, container: container, problems: problems)
    }

    /// Each fMP4 track's decode times from the segment's `moof` boxes (AS 7.3 is about them, not
    /// about libavformat's shifted timestamps): a walk over the top-level box headers, the
    /// `mdat` stepped over. The `trex` defaults come from the init section, or from the
    /// segment's own `moov` when it carries one.
    static func fragmentTiming(
        of tracks: inout [TrackFacts], segment: any RandomAccessBytes, initSection: (any RandomAccessBytes)?,
        gauge: BufferGauge?
    ) {
        let head = initSection ?? segment
        let defaults =
            (try? head.bytes(at: 0, length: min(head.count, 1 << 20))).map {
                MovieFragmentTiming.defaultDurations(initSection: $0[...])
            } ?? [:]
        let cursor = ByteCursor(segment, gauge: gauge)
        let fragments = MovieFragmentTiming.tracks(in: cursor, defaultDurations: defaults)
        guard cursor.failure == nil else { return }
        for index in tracks.indices {
            guard let id = tracks[index].id, let fragment = fragments.first(where: { Int($0.trackID) == id }),
                let start = Int64(exactly: fragment.start), let end = Int64(exactly: fragment.end)
            else { continue }
            tracks[index].firstDecodeTime = start
            tracks[index].decodeEndTime = end
        }
    }

    /// The scanners' walk through a window: ID3 tags, and in TS the continuity counters.
    static func scanPass(
        uri: String, segment: any RandomAccessBytes, container: SegmentContainer, maximumID3Bytes: Int,
        gauge: BufferGauge? = nil,
        windowSize: Int = ByteCursor.defaultWindowSize
    ) throws(InputReadError) -> ScanResult {
        let cursor = ByteCursor(segment, windowSize: windowSize, gauge: gauge)
        var result = ScanResult()
        if container == .mpegTS {
            // One walk over the packets for both the counters and the timed ID3.
            var tracker = ContinuityTracker()
            var collector = TimedID3Collector(maximumTagBytes: maximumID3Bytes)
            TransportStream.forEachPacket(in: cursor) { offset, index, packet in
                tracker.consume(packet, packetIndex: index)
                collector.consume(packet, at: offset)
            }
            result.continuity = tracker.continuity
            result.found = collector.finish()
        } else {
            result.found = EmbeddedID3.tags(
                in: cursor, container: container.id3Container, maximumTagBytes: maximumID3Bytes)
        }
        if let failure = cursor.failure { throw InputReadError(uri: uri, reason: failure.reason) }
        return result
    }

    static func finish(
        _ demuxed: DemuxPassResult, _ scanned: ScanResult, maximumImagePixels: Int, images: DecodedImages? = nil
    ) -> SegmentFacts {
        var facts = demuxed.facts
        facts.continuity = scanned.continuity
        let stated = demuxed.problems.compactMap { $0 }
        facts.problem = stated.isEmpty ? nil : stated.joined(separator: "; ")
        let found = scanned.found
        facts.id3 = found.map(ID3TagFacts.init(found:))
        facts.artwork = found.flatMap { $0.tag?.frames ?? [] }.compactMap { frame in
            guard case .attachedPicture(let picture) = frame else { return nil }
            return PictureFacts(picture, maximumPixels: maximumImagePixels, images: images)
        }
        if demuxed.container.isPackedAudio {
            if let first = facts.id3.first, first.offset == 0 {
                facts.transportStreamTimestamp = first.transportStreamTimestamp
            }
            // Raw audio has no timestamps of its own: libav counts from 0. The segment's real
            // start is the PRIV timestamp (RFC 8216 §3.4), or unknown without it.
            facts.firstPTS = facts.transportStreamTimestamp.map { Double($0) / 90000 }
        }
        return facts
    }

    /// Why bytes that neither their name nor their first bytes place, and that libavformat's
    /// probing could not open either, are no segment. libav's own error there is whatever the
    /// closest demuxer returned (ENOMEM from its HLS demuxer for a playlist, EPERM from concat,
    /// EINVAL), which would send a user looking for the wrong cause.
    static func unrecognised(_ source: any RandomAccessBytes) -> String {
        var head = (try? source.bytes(at: 0, length: 10)) ?? []
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { head.removeFirst(3) }
        if head.starts(with: Array("#EXTM3U".utf8)) {
            return "is a playlist (it starts with #EXTM3U), not a media segment"
        }
        return
            "is not a media segment: its name has no segment extension (.ts, .aac, .mp3, .ac3, .ec3, .m4s, .mp4, .vtt) and its first bytes are none of MPEG-TS, fMP4, ADTS, MP3, AC-3, E-AC-3 or WebVTT"
    }

    /// libavformat refused to open the bytes as the container their name or first bytes chose:
    /// what the user can check, with libav's own text after it. A demuxer opens on its first
    /// frame or packet, so a segment too short to hold one (a transfer cut short, a runt
    /// file) is the usual cause: "avformat_open_input: Invalid argument" alone told nothing.
    static func cannotOpen(_ source: any RandomAccessBytes, as container: SegmentContainer, _ error: LibAVError)
        -> String
    {
        let name =
            switch container {
            case .mpegTS: "MPEG-TS"
            case .adts: "ADTS AAC"
            case .mp3: "MP3"
            case .ac3: "AC-3"
            case .eac3: "E-AC-3"
            case .fragmentedMP4: "fMP4"
            case .webVTT: "WebVTT"
            case .unknown: "media"
            }
        return
            "cannot be opened as \(name): its \(source.count) bytes hold no complete \(name) frame or packet that libavformat accepts (cut short, or not \(name) despite its name); check the file with ffprobe and write it again (\(error.description))"
    }

    private static func demux(
        uri: String, source: any RandomAccessBytes, container: SegmentContainer, wantsStreamInfo: Bool,
        maximumImagePixels: Int,
        gauge: BufferGauge?, feed: ScanFeed?, streamInfoDecodesVideo: Bool
    ) throws(InputReadError) -> DemuxResult {
        guard source.count > 0 else { return DemuxResult(problem: "segment is empty") }
        let demuxer: Demuxer
        do {
            demuxer = try Demuxer(source: source, container: container, gauge: gauge, feed: feed)
        } catch {
            return DemuxResult(
                problem: container == .unknown ? unrecognised(source) : cannotOpen(source, as: container, error))
        }
        // A failing stream-info pass (e.g. encrypted payload) still leaves packets to count.
        var streamInfoProblem: String?
        if wantsStreamInfo {
            do {
                try demuxer.findStreamInfo(maximumPixels: maximumImagePixels, decodingVideo: streamInfoDecodesVideo)
            } catch {
                streamInfoProblem = error.description
            }
        }
        var result = demuxer.scan()
        if let failure = demuxer.readFailure { throw InputReadError(uri: uri, reason: failure.reason) }
        if let streamInfoProblem, result.tracks.allSatisfy({ $0.packetCount == 0 }) || result.problem != nil {
            result.problem = [streamInfoProblem, result.problem].compactMap { $0 }.joined(separator: "; ")
        }
        return result
    }
}

extension SegmentContainer {
    var id3Container: ContainerKind {
        switch self {
        case .mpegTS: return .mpegTS
        case .adts, .mp3, .ac3, .eac3: return .packedAudio
        case .fragmentedMP4: return .fragmentedMP4
        case .webVTT, .unknown: return .unknown
        }
    }
}

extension ID3TagFacts {
    init(found: FoundID3Tag) {
        self.init(offset: found.offset, pts90k: found.pts90k, problem: found.error)
        guard let tag = found.tag else { return }
        majorVersion = Int(tag.majorVersion)
        frames = tag.frames.map(ID3FrameFacts.init(frame:))
        transportStreamTimestamp = tag.transportStreamTimestamp?.pts90k
    }
}

extension ID3FrameFacts {
    init(frame: ID3Frame) {
        let summary: String, count: Int
        var pictureType: Int?
        switch frame {
        case .attachedPicture(let picture):
            summary = picture.mimeType
            count = picture.data.count
            pictureType = Int(picture.pictureType)
        case .privateData(let owner, let data):
            summary = owner
            count = data.count
        case .userText(let description, let value):
            summary = "\(description)=\(value)"
            count = summary.utf8.count
        case .text(_, let value):
            summary = value
            count = value.utf8.count
        case .unknown(_, _, let body):
            summary = ""
            count = body.count
        }
        // At most 256 characters; a text of at most 256 bytes has no more (and is kept as it is).
        self.init(
            id: frame.id, summary: summary.utf8.count <= 256 ? summary : String(summary.prefix(256)), byteCount: count,
            frameByteCount: frame.serializedByteCount, pictureType: pictureType)
    }
}

extension PictureFacts {
    /// The facts of `picture`; its decoding is looked up in `images` first (the same poster in
    /// every segment is decoded once).
    init(_ picture: AttachedPicture, maximumPixels: Int, images: DecodedImages? = nil) {
        let contentHash = images?.contentHash(picture.data) ?? SHA256.hexDigest(picture.data)
        let decode = { PosterDecoder.decode(picture.data, mimeType: picture.mimeType, maximumPixels: maximumPixels) }
        let key = DecodedImages.Key(
            contentHash: contentHash, byteCount: picture.data.count, mimeType: picture.mimeType,
            maximumPixels: maximumPixels)
        let decoded = images?.result(key, decode: decode) ?? decode()
        var size: (width: Int, height: Int)?
        var problem: String?
        switch decoded {
        case .success(let decodedSize): size = (decodedSize.width, decodedSize.height)
        case .failure(let failure): problem = failure.description
        }
        self.init(
            mimeType: picture.mimeType, pictureType: Int(picture.pictureType), byteCount: picture.data.count,
            contentHash: contentHash, width: size?.width, height: size?.height, decodeProblem: problem,
            contentType: Self.contentType(of: picture.data))
    }
}
