internal import MediaFormats

/// Edits the APIC frames of one serialized ID3v2 tag while disturbing nothing else.
///
/// What a poster replaces (ID3v2.4 frames §4.14, ID3v2.3 §4.15): the front cover (picture type
/// 3), the picture the poster is, and APIC frames that cannot be read (what they are cannot be
/// told). Every other picture — a back cover, an artist photo, a picture type 1 or 2 file icon —
/// belongs to whoever tagged the segment and stays, byte for byte. The poster takes the place of
/// the tag's first picture, so it stays the first picture readers find; and since a tag holds
/// one picture per content descriptor, a poster whose description a kept picture already has
/// is written with a distinct one (`distinctDescription`).
///
/// An ID3v2.4 tag without unsynchronisation, extended header or footer is edited at the byte
/// level: every other frame keeps its exact bytes (flags, text encodings, data length
/// indicators) and the tag keeps its padding, so embedding and then removing a poster gives
/// back the original tag. Any other tag (ID3v2.3, unsynchronised, with extended header or footer)
/// is decoded and written again as ID3v2.4 (ID3v2.4 structure §3–§4), the version HLS players
/// are specified against (Apple "Timed Metadata for HTTP Live Streaming"); a tag the edit would
/// not change is returned as it is.
enum ID3TagEditor {
    struct Edit {
        /// The poster. It takes the place of the tag's first APIC frame; the frames it replaces
        /// (`replaces`) go, every other picture stays. In a tag without APIC frame it is
        /// appended when `appendPictureIfAbsent` is set. nil removes the frames a poster
        /// replaces, and nothing else.
        var picture: ID3Frame?
        var appendPictureIfAbsent: Bool
        /// Frames inserted before all others (the PRIV timestamp of packed audio).
        var prependedFrames: [ID3Frame] = []
    }

    /// The picture type of HLS posters: "Cover (front)".
    static let posterPictureType: UInt8 = 3

    /// Whether a poster replaces `frame`: a front cover, or an APIC frame that cannot be read.
    static func replaces(_ frame: ID3Frame) -> Bool {
        guard frame.id == "APIC" else { return false }
        guard case .attachedPicture(let picture) = frame else { return true }
        return picture.pictureType == posterPictureType
    }

    /// The pictures of `frames` a poster keeps.
    static func keptPictures(_ frames: [ID3Frame]) -> [AttachedPicture] {
        frames.compactMap { frame in
            guard case .attachedPicture(let picture) = frame, !replaces(frame) else { return nil }
            return picture
        }
    }

    /// `picture` with a description no picture of `kept` has (ID3v2.4 frames §4.14: one picture
    /// per content descriptor): its own when free, else "poster", "poster 2", …
    static func distinctDescription(_ picture: ID3Frame, from kept: [AttachedPicture]) -> ID3Frame {
        guard case .attachedPicture(var poster) = picture else { return picture }
        let taken = Set(kept.map(\.description))
        guard taken.contains(poster.description) else { return picture }
        let base = poster.description.isEmpty ? "poster" : poster.description + " (poster)"
        var candidate = base, number = 1
        while taken.contains(candidate) {
            number += 1
            candidate = "\(base) \(number)"
        }
        poster.description = candidate
        return .attachedPicture(poster)
    }

    /// The largest tag we write: ID3v2 sizes are 28-bit synchsafe integers (ID3v2.4 §3.1).
    static let maximumTagSize = (1 << 28) - 1

    /// The tag bytes after `edit`, or nil when no frame would remain (the caller drops the tag).
    /// Returns `tagBytes` unchanged when the edit changes nothing.
    static func apply(_ edit: Edit, to tagBytes: ArraySlice<UInt8>) throws(PackagingError) -> [UInt8]? {
        let tag: ID3Tag
        do {
            tag = try ID3Tag.parse(tagBytes).tag
        } catch {
            throw PackagingError(
                .malformedID3,
                "existing ID3 tag cannot be read (\(error.description)); fix or strip the tag before embedding a poster"
            )
        }
        let hasPicture = tag.frames.contains { $0.id == "APIC" }
        let replacing = tag.frames.contains(where: replaces)
        let placing = edit.picture != nil && (hasPicture || edit.appendPictureIfAbsent)
        if !replacing, !placing, edit.prependedFrames.isEmpty {
            return Array(tagBytes)
        }
        var edit = edit
        edit.picture = edit.picture.map { distinctDescription($0, from: keptPictures(tag.frames)) }
        if let layout = FrameLayout(tagBytes), layout.frames.count == tag.frames.count {
            return try byteLevelEdit(edit, tagBytes: tagBytes, layout: layout, frames: tag.frames)
        }
        return try modelEdit(edit, tag: tag)
    }

    /// A new ID3v2.4 tag holding exactly `frames`.
    static func serializedTag(_ frames: [ID3Frame]) throws(PackagingError) -> [UInt8] {
        let bytes = ID3Tag(majorVersion: 4, frames: frames).serialized()
        guard bytes.count <= maximumTagSize else {
            throw PackagingError(
                .layoutNotSupported,
                "the ID3 tag would be \(bytes.count) bytes, over the ID3v2 limit of 256 MiB; use a smaller poster")
        }
        return bytes
    }

    /// Whether the tag at the start of `bytes` has an APIC frame (nil: not a readable tag).
    static func containsPicture(_ tag: ID3Tag) -> Bool {
        tag.frames.contains { $0.id == "APIC" }
    }

    // MARK: Byte level (ID3v2.4 only)

    /// Where each frame of a plain ID3v2.4 tag lies, and where the padding starts.
    struct FrameLayout {
        var frames: [(id: String, range: Range<Int>)] = []
        var paddingRange: Range<Int>

        init?(_ tag: ArraySlice<UInt8>) {
            guard let header = try? ID3Tag.Header.parse(tag), header.majorVersion == 4,
                header.flags & 0xD0 == 0,  // unsynchronisation, extended header, footer (§3.1)
                header.tagByteCount <= tag.count
            else { return nil }
            let end = tag.startIndex + header.tagByteCount
            var position = tag.startIndex + 10
            while end - position >= 10, tag[position] != 0 {
                var reader = ByteReader(tag[position..<end])
                guard let id = reader.readBytes(4), let size = reader.readSynchsafeUInt28(),
                    reader.skip(2), reader.remainingCount >= Int(size)
                else { return nil }
                let frameEnd = position + 10 + Int(size)
                frames.append((String(decoding: id, as: UTF8.self), position..<frameEnd))
                position = frameEnd
            }
            paddingRange = position..<end
        }
    }

    private static func frameBytes(_ frame: ID3Frame) -> ArraySlice<UInt8> {
        ID3Tag(majorVersion: 4, frames: [frame]).serialized().dropFirst(10)
    }

    private static func byteLevelEdit(
        _ edit: Edit, tagBytes: ArraySlice<UInt8>, layout: FrameLayout, frames: [ID3Frame]
    ) throws(PackagingError) -> [UInt8]? {
        var out = ByteWriter(capacity: tagBytes.count + (edit.picture.map { frameBytes($0).count } ?? 0))
        out.writeBytes(tagBytes.prefix(10))
        var frameCount = 0
        for frame in edit.prependedFrames {
            out.writeBytes(frameBytes(frame))
            frameCount += 1
        }
        var placed = false
        for (frame, decoded) in zip(layout.frames, frames) {
            if frame.id == "APIC" {
                // The poster takes the place of the first picture, whether that one goes or stays.
                if !placed, let picture = edit.picture {
                    out.writeBytes(frameBytes(picture))
                    frameCount += 1
                }
                placed = true
                if replaces(decoded) { continue }
            }
            out.writeBytes(tagBytes[frame.range])
            frameCount += 1
        }
        if !placed, edit.appendPictureIfAbsent, let picture = edit.picture {
            out.writeBytes(frameBytes(picture))
            frameCount += 1
        }
        guard frameCount > 0 else { return nil }
        out.writeBytes(tagBytes[layout.paddingRange])  // keep the writer's padding
        guard out.count <= maximumTagSize else {
            throw PackagingError(
                .layoutNotSupported,
                "the ID3 tag would be \(out.count) bytes, over the ID3v2 limit of 256 MiB; use a smaller poster")
        }
        out.patchSynchsafeUInt28(UInt32(out.count - 10), at: 6)
        return out.bytes
    }

    // MARK: Model level (any readable version, written as ID3v2.4)

    private static func modelEdit(_ edit: Edit, tag: ID3Tag) throws(PackagingError) -> [UInt8]? {
        var frames: [ID3Frame] = edit.prependedFrames
        var placed = false
        for frame in tag.frames {
            if frame.id == "APIC" {
                if !placed, let picture = edit.picture { frames.append(picture) }
                placed = true
                if replaces(frame) { continue }
            }
            frames.append(tag.majorVersion == 3 ? try convertedToVersion4(frame) : frame)
        }
        if !placed, edit.appendPictureIfAbsent, let picture = edit.picture { frames.append(picture) }
        guard !frames.isEmpty else { return nil }
        return try serializedTag(frames)
    }

    /// An undecoded ID3v2.3 frame keeps its body; its flags move to the v2.4 layout (v2.3
    /// §3.3.1 vs v2.4 §4.1). Compressed, encrypted or grouped v2.3 frames carry extra header
    /// bytes in a different order than v2.4, so they are refused rather than silently damaged.
    private static func convertedToVersion4(_ frame: ID3Frame) throws(PackagingError) -> ID3Frame {
        guard case .unknown(let id, let flags, let body) = frame else { return frame }
        guard flags & 0x00E0 == 0 else {
            throw PackagingError(
                .malformedID3,
                "ID3v2.3 frame \(id) is compressed, encrypted or grouped and cannot be rewritten as ID3v2.4; re-tag the segment as ID3v2.4 first"
            )
        }
        // Tag alter preservation, file alter preservation, read only: bits 15–13 → 14–12.
        return .unknown(id: id, flags: (flags & 0xE000) >> 1, body: body)
    }
}
