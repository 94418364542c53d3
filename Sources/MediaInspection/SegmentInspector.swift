public import MediaFormats

/// Inspects media segments: libavformat for tracks and timing, MediaFormats for ID3 (which
/// libavformat 5.1 reads only partly, design.md §6). Sendable; every libav object it creates
/// lives inside one synchronous call, so inspections can run concurrently.
public struct SegmentInspector: Sendable {
    /// Where segment, init section and key bytes come from.
    public let source: any SegmentByteSource
    /// Posters declaring more pixels than this are not decoded (their facts say why).
    public var maximumImagePixels: Int
    /// ID3 tags larger than this are reported, not parsed.
    public var maximumID3Bytes: Int

    /// Makes an inspector; the limits default to `ImageHeader.defaultMaximumPixels` pixels and
    /// `EmbeddedID3.maximumPESSize` bytes.
    public init(
        source: any SegmentByteSource, maximumImagePixels: Int = ImageHeader.defaultMaximumPixels,
        maximumID3Bytes: Int = EmbeddedID3.maximumPESSize
    ) {
        self.source = source
        self.maximumImagePixels = maximumImagePixels
        self.maximumID3Bytes = maximumID3Bytes
    }

    /// Facts about one segment. Throws only when its bytes cannot be read; a segment that does
    /// not demux yields facts whose `problem` says why.
    public func inspect(_ request: SegmentRequest) async throws -> SegmentFacts {
        let segment = try await source.read(request.uri, range: request.range)
        let initBytes = try await readInitSection(request)
        guard let decryption = request.decryption else {
            return Self.inspect(
                uri: request.uri, segment: segment, initSection: initBytes, wantsStreamInfo: request.wantsStreamInfo,
                wantsDecode: request.wantsDecode, maximumImagePixels: maximumImagePixels, maximumID3Bytes: maximumID3Bytes)
        }
        // The downloaded (encrypted) size is what counts for bit rate; the content is the clear text.
        var hidden = SegmentFacts(uri: request.uri, byteCount: segment.count, container: .unknown)
        let key: [UInt8]
        do {
            // 16 bytes at most: a key URI is no reason to load a large file.
            key = try await source.read(decryption.keyURI, range: SegmentByteRange(offset: 0, length: 16))
        } catch {
            hidden.decryption = .keyUnavailable("the key \(decryption.keyURI) cannot be read as the 16 bytes of an AES-128 key (\(error))")
            return hidden
        }
        let clear: [UInt8]
        do {
            clear = try AES128CBC.decrypt(segment, key: key, iv: decryption.iv)
        } catch {
            hidden.problem = "does not decrypt with the key \(decryption.keyURI): \(error.description)"
            hidden.decryption = .decrypted
            return hidden
        }
        var facts = Self.inspect(
            uri: request.uri, segment: clear, initSection: initBytes, wantsStreamInfo: request.wantsStreamInfo,
            wantsDecode: request.wantsDecode, maximumImagePixels: maximumImagePixels, maximumID3Bytes: maximumID3Bytes)
        facts.byteCount = segment.count
        facts.decryption = .decrypted
        return facts
    }

    /// Inspects `requests` with at most `maxConcurrent` in flight and returns the outcomes in
    /// input order. Only the segments in flight are held in memory; results are small values.
    public func inspectAll(_ requests: [SegmentRequest], maxConcurrent: Int = 2) async -> [Result<SegmentFacts, any Error>] {
        let limit = max(1, maxConcurrent)
        var results = [Result<SegmentFacts, any Error>?](repeating: nil, count: requests.count)
        // No nested function captures the group: a release build (Swift 6.3.1) miscompiled
        // that shape and stopped after the first segment.
        await withTaskGroup(of: (Int, Result<SegmentFacts, any Error>).self) { group in
            var next = 0
            while next < min(limit, requests.count) {
                let index = next, request = requests[index]
                group.addTask { await outcome(index, request) }
                next += 1
            }
            while let (index, result) = await group.next() {
                results[index] = result
                if next < requests.count {
                    let index = next, request = requests[index]
                    group.addTask { await outcome(index, request) }
                    next += 1
                }
            }
        }
        return results.map { $0 ?? .failure(SegmentReadError(uri: "", reason: "not inspected")) }
    }

    private func outcome(_ index: Int, _ request: SegmentRequest) async -> (Int, Result<SegmentFacts, any Error>) {
        do { return (index, .success(try await inspect(request))) } catch { return (index, .failure(error)) }
    }

    /// The APIC pictures of a segment, with their image bytes (for `hlscheck artwork --extract`).
    public func extractArtwork(_ request: SegmentRequest) async throws -> [AttachedPicture] {
        let segment = try await source.read(request.uri, range: request.range)
        let (container, _) = ContainerSniffer.container(uri: request.uri, bytes: segment, hasInitSection: request.initSection != nil)
        return EmbeddedID3.tags(in: segment, container: container.id3Container, maximumTagBytes: maximumID3Bytes)
            .flatMap { $0.tag?.frames ?? [] }
            .compactMap { frame in
                if case .attachedPicture(let picture) = frame { return picture }
                return nil
            }
    }

    /// The image bytes of the segment's APIC picture whose SHA-256 is `contentHash`
    /// (`ArtworkFacts.contentHash`); nil when the segment no longer holds it. Reads the segment
    /// again: a report asks this once per distinct poster, never per segment.
    public func pictureBytes(_ request: SegmentRequest, contentHash: String) async throws -> [UInt8]? {
        try await extractArtwork(request).first { SHA256.hexDigest($0.data) == contentHash }?.data
    }

    private func readInitSection(_ request: SegmentRequest) async throws -> [UInt8]? {
        guard let initSection = request.initSection else { return nil }
        return try await source.read(initSection.uri, range: initSection.range)
    }

    /// The synchronous core: bytes in, facts out. Never throws; content problems become `problem`.
    static func inspect(
        uri: String, segment: [UInt8], initSection: [UInt8]?, wantsStreamInfo: Bool, wantsDecode: Bool = false,
        maximumImagePixels: Int = ImageHeader.defaultMaximumPixels, maximumID3Bytes: Int = EmbeddedID3.maximumPESSize
    ) -> SegmentFacts {
        LibAV.silenceLogging()
        let (container, layoutProblem) = ContainerSniffer.container(uri: uri, bytes: segment, hasInitSection: initSection != nil)
        var facts = SegmentFacts(uri: uri, byteCount: segment.count, container: container)

        // A lone fMP4 fragment would only make libav fail with "invalid data": say what is missing.
        let demux = layoutProblem == ContainerSniffer.needsInitSection
            ? DemuxResult()
            : demux(
                segment: segment, initSection: initSection, container: container, wantsStreamInfo: wantsStreamInfo,
                maximumImagePixels: maximumImagePixels)
        facts.tracks = demux.tracks
        facts.duration = demux.duration
        facts.firstPTS = demux.firstPTS
        facts.videoStartsWithKeyframe = demux.videoStartsWithKeyframe
        facts.keyframeHasParameterSets = demux.keyframeHasParameterSets
        if container == .mpegTS { facts.continuity = TransportStream.continuity(in: segment) }
        var problems = [layoutProblem, demux.problem]
        if container == .mpegTS, segment.count % 188 != 0 {
            // A cut transfer: TS segments consist of whole 188-byte packets (ISO/IEC 13818-1 §2.4.3.2).
            problems.append("ends in a partial transport stream packet (\(segment.count % 188) of 188 bytes)")
        }
        if wantsDecode, layoutProblem != ContainerSniffer.needsInitSection, !segment.isEmpty {
            facts.decoding = SegmentDecoder.decode(
                bytes: initSection.map { $0 + segment } ?? segment, container: container, maximumPixels: maximumImagePixels)
        }
        let stated = problems.compactMap { $0 }
        facts.problem = stated.isEmpty ? nil : stated.joined(separator: "; ")

        let found = EmbeddedID3.tags(in: segment, container: container.id3Container, maximumTagBytes: maximumID3Bytes)
        facts.id3 = found.map(ID3TagFacts.init(found:))
        facts.artwork = found.flatMap { $0.tag?.frames ?? [] }.compactMap { frame in
            guard case .attachedPicture(let picture) = frame else { return nil }
            return ArtworkFacts(picture, maximumPixels: maximumImagePixels)
        }
        if container.isPackedAudio {
            if let first = facts.id3.first, first.offset == 0 {
                facts.transportStreamTimestamp = first.transportStreamTimestamp
            }
            // Raw audio has no timestamps of its own: libav counts from 0. The segment's real
            // start is the PRIV timestamp (RFC 8216 §3.4), or unknown without it.
            facts.firstPTS = facts.transportStreamTimestamp.map { Double($0) / 90000 }
        }
        return facts
    }

    private static func demux(
        segment: [UInt8], initSection: [UInt8]?, container: SegmentContainer, wantsStreamInfo: Bool, maximumImagePixels: Int
    ) -> DemuxResult {
        guard !segment.isEmpty else { return DemuxResult(problem: "segment is empty") }
        do {
            let demuxer = try Demuxer(bytes: initSection.map { $0 + segment } ?? segment, container: container)
            // A failing stream-info pass (e.g. encrypted payload) still leaves packets to count.
            var streamInfoProblem: String?
            if wantsStreamInfo {
                do { try demuxer.findStreamInfo(maximumPixels: maximumImagePixels) } catch { streamInfoProblem = error.description }
            }
            var result = demuxer.scan()
            if let streamInfoProblem, result.tracks.allSatisfy({ $0.packetCount == 0 }) || result.problem != nil {
                result.problem = [streamInfoProblem, result.problem].compactMap { $0 }.joined(separator: "; ")
            }
            return result
        } catch {
            return DemuxResult(problem: error.description)
        }
    }
}

extension SegmentContainer {
    var id3Container: ContainerKind {
        switch self {
        case .mpegTS: return .mpegTS
        case .adts, .mp3, .ac3, .eac3: return .packedAudio
        case .fragmentedMP4: return .fragmentedMP4
        case .unknown: return .unknown
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
        switch frame {
        case .attachedPicture(let picture):
            summary = picture.mimeType
            count = picture.data.count
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
        self.init(
            id: frame.id, summary: String(summary.prefix(256)), byteCount: count,
            frameByteCount: ID3Tag(majorVersion: 4, frames: [frame]).serialized().count - 10)
    }
}

extension ArtworkFacts {
    init(_ picture: AttachedPicture, maximumPixels: Int) {
        self.init(
            mimeType: picture.mimeType, pictureType: Int(picture.pictureType),
            byteCount: picture.data.count, contentHash: SHA256.hexDigest(picture.data)
        )
        switch ArtworkDecoder.decode(picture.data, mimeType: picture.mimeType, maximumPixels: maximumPixels) {
        case .success(let size):
            width = size.width
            height = size.height
        case .failure(let failure):
            decodeProblem = failure.description
        }
    }
}
