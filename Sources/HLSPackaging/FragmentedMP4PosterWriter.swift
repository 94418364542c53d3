internal import MediaFormats

/// Embeds the poster into fMP4/CMAF media segments as an `emsg` box (ISO/IEC 23009-1 §5.10.3.3)
/// of version 1 with scheme_id_uri `https://aomedia.org/emsg/ID3`, whose message_data is one
/// complete ID3v2.4 tag (AOM "Carriage of ID3 Timed Metadata in the Common Media Application
/// Format"). The box goes before the first `moof`, after `styp`, `sidx` and `prft`: CMAF
/// (ISO/IEC 23000-19) and DASH carry event messages ahead of the movie fragment they belong to.
///
/// Every top-level box other than `emsg` keeps its bytes, with one exception: a `sidx` whose
/// references end on box boundaries gets its first_offset/referenced_size adjusted
/// (ISO/IEC 14496-12 §8.16.3) so that byte-range requests still fetch whole subsegments, the
/// new `emsg` counting as part of the subsegment of the `moof` it precedes.
package enum FragmentedMP4PosterWriter {
    /// `fragment` with its ID3 emsg APIC set to `poster` (nil removes it, and drops emsg boxes
    /// left empty). `initSection` (EXT-X-MAP) supplies the track timescale for the emsg; without
    /// it the emsg uses 90 kHz and takes the `tfdt` time as is.
    package static func rewrite(_ fragment: [UInt8], initSection: [UInt8]?, poster: Poster?) throws(PackagingError)
        -> [UInt8]
    {
        guard let boxes = ISOBox.boxes(in: fragment[...]), !boxes.isEmpty else {
            throw PackagingError(
                .wrongContainer,
                "the fragment is not a sequence of ISO BMFF boxes (a size field runs past the end, or it is not fMP4): it is truncated, encrypted as a whole, or another format"
            )
        }
        guard let firstMoof = boxes.firstIndex(where: { $0.type == "moof" }) else {
            let types = boxes.prefix(6).map(\.type).joined(separator: ", ")
            throw PackagingError(
                .wrongContainer,
                "the file has no moof box (found \(types)): it is not an fMP4 media segment — an init section goes in EXT-X-MAP and needs no poster"
            )
        }

        // Existing ID3 event messages: the first one with an APIC gets the poster, the others lose
        // the front covers it replaces (ID3TagEditor); other pictures stay.
        var replacements: [Int: [UInt8]?] = [:]  // box index → new bytes (nil: drop)
        var placed = false
        for (index, box) in boxes.enumerated() where box.type == "emsg" {
            guard var message = EventMessageBox(payload: fragment[box.payloadRange]), message.carriesID3 else {
                continue
            }
            guard let tag = try? ID3Tag.parse(message.messageData).tag else {
                // A damaged ID3 message: replaced by the poster (or dropped), never kept beside it.
                if let poster, !placed {
                    message.messageData = try ID3TagEditor.serializedTag([poster.frame])
                    replacements[index] = message.serialized()
                    placed = true
                } else {
                    replacements[index] = .some(nil)
                }
                continue
            }
            guard ID3TagEditor.containsPicture(tag) else { continue }
            let picture = placed ? nil : poster?.frame
            if poster != nil { placed = true }
            if let edited = try ID3TagEditor.apply(
                .init(picture: picture, appendPictureIfAbsent: false), to: message.messageData[...])
            {
                // Only pictures the poster does not replace (a back cover, say): the box stays as it is.
                if edited.elementsEqual(message.messageData) { continue }
                message.messageData = edited
                replacements[index] = message.serialized()
            } else {
                replacements[index] = .some(nil)
            }
        }
        var inserted: [UInt8] = []
        if let poster, !placed {
            let timing = try fragmentTiming(fragment, moof: boxes[firstMoof], initSection: initSection)
            inserted = EventMessageBox(
                version: 1, timescale: timing.timescale, presentationTime: timing.baseMediaDecodeTime,
                eventDuration: 0xFFFF_FFFF, id: 0,
                messageData: try ID3TagEditor.serializedTag([poster.frame])
            ).serialized()
        }
        if replacements.isEmpty && inserted.isEmpty { return fragment }

        // Lay out the output and remember where each original box boundary moved to.
        var pieces: [ArraySlice<UInt8>] = []
        var newStart: [Int] = []  // where box i's material (inserted emsg included) begins
        var newBoxStart: [Int] = []  // where box i itself begins (undefined when dropped)
        var offset = 0
        for (index, box) in boxes.enumerated() {
            newStart.append(offset)
            if index == firstMoof, !inserted.isEmpty {
                pieces.append(inserted[...])
                offset += inserted.count
            }
            newBoxStart.append(offset)
            let bytes = replacements[index].map { $0?[...] ?? [] } ?? fragment[box.range]
            pieces.append(bytes)
            offset += bytes.count
        }
        let delta = offset - fragment.count
        if delta != 0 {
            try refuseAbsoluteDataOffsets(fragment, boxes: boxes, after: firstMoof)
        }
        var out = ByteWriter(capacity: offset)
        for piece in pieces { out.writeBytes(piece) }
        var result = out.bytes

        // Keep sidx references pointing at whole subsegments.
        let boundaryMap = Dictionary(
            uniqueKeysWithValues: zip(boxes.map(\.range.lowerBound), newStart) + [(fragment.count, offset)])
        for (index, box) in boxes.enumerated() where box.type == "sidx" && replacements[index] == nil {
            SegmentIndex.remap(
                sidx: box, in: fragment, newBoxStart: newBoxStart[index], boundaryMap: boundaryMap, output: &result)
        }
        return result
    }

    struct FragmentTiming {
        var timescale: UInt32
        var baseMediaDecodeTime: UInt64
    }

    /// The first track fragment's baseMediaDecodeTime (tfdt, ISO/IEC 14496-12 §8.8.12) and the
    /// timescale of that track from the init section's mdhd (§8.4.2).
    static func fragmentTiming(_ fragment: [UInt8], moof: ISOBox, initSection: [UInt8]?) throws(PackagingError)
        -> FragmentTiming
    {
        let traf = moof.children(in: fragment[...])?.first { $0.type == "traf" }
        let trafChildren = traf?.children(in: fragment[...]) ?? []
        guard let tfdt = trafChildren.first(where: { $0.type == "tfdt" }) else {
            throw PackagingError(
                .layoutNotSupported,
                "the first track fragment has no tfdt box, so the poster's emsg cannot be given a presentation time; re-package the stream as CMAF (every traf carries tfdt)"
            )
        }
        var reader = ByteReader(fragment[tfdt.payloadRange])
        guard let version = reader.readUInt8(), reader.readUInt24() != nil,
            let time = version == 1 ? reader.readUInt64() : reader.readUInt32().map(UInt64.init)
        else {
            throw PackagingError(.layoutNotSupported, "the tfdt box is truncated")
        }
        var trackID: UInt32? = nil
        if let tfhd = trafChildren.first(where: { $0.type == "tfhd" }) {
            var tfhdReader = ByteReader(fragment[tfhd.payloadRange])
            tfhdReader.skip(4)
            trackID = tfhdReader.readUInt32()
        }
        guard let initSection else { return FragmentTiming(timescale: 90_000, baseMediaDecodeTime: time) }
        let timescales = try trackTimescales(initSection)
        guard
            let timescale = trackID.flatMap({ id in timescales.first { $0.trackID == id }?.timescale })
                ?? timescales.first?.timescale,
            timescale > 0
        else {
            throw PackagingError(
                .wrongContainer,
                "the init section has no track with a timescale (moov/trak/mdia/mdhd): is it the EXT-X-MAP of this fragment?"
            )
        }
        return FragmentTiming(timescale: timescale, baseMediaDecodeTime: time)
    }

    /// track_ID (tkhd, §8.3.2) and timescale (mdhd, §8.4.2) of each trak in the init section.
    static func trackTimescales(_ initSection: [UInt8]) throws(PackagingError) -> [(trackID: UInt32, timescale: UInt32)]
    {
        let bytes = initSection[...]
        guard let moov = ISOBox.boxes(in: bytes)?.first(where: { $0.type == "moov" }) else {
            throw PackagingError(
                .wrongContainer, "the init section has no moov box: it is not an fMP4 initialization segment")
        }
        var result: [(UInt32, UInt32)] = []
        for trak in moov.children(in: bytes) ?? [] where trak.type == "trak" {
            let children = trak.children(in: bytes) ?? []
            guard let tkhd = children.first(where: { $0.type == "tkhd" }),
                let mdhd = children.first(where: { $0.type == "mdia" })?.children(in: bytes)?.first(where: {
                    $0.type == "mdhd"
                })
            else { continue }
            var tkhdReader = ByteReader(bytes[tkhd.payloadRange])
            guard let tkhdVersion = tkhdReader.readUInt8(), tkhdReader.skip(3 + (tkhdVersion == 1 ? 16 : 8)),
                let trackID = tkhdReader.readUInt32()
            else { continue }
            var mdhdReader = ByteReader(bytes[mdhd.payloadRange])
            guard let mdhdVersion = mdhdReader.readUInt8(), mdhdReader.skip(3 + (mdhdVersion == 1 ? 16 : 8)),
                let timescale = mdhdReader.readUInt32()
            else { continue }
            result.append((trackID, timescale))
        }
        return result
    }

    /// A tfhd with base-data-offset-present (§8.8.7) addresses samples by absolute file offset;
    /// moving the moof would make trun point at the wrong bytes.
    static func refuseAbsoluteDataOffsets(_ fragment: [UInt8], boxes: [ISOBox], after firstMoof: Int)
        throws(PackagingError)
    {
        for moof in boxes[firstMoof...] where moof.type == "moof" {
            for traf in moof.children(in: fragment[...]) ?? [] where traf.type == "traf" {
                for tfhd in traf.children(in: fragment[...]) ?? [] where tfhd.type == "tfhd" {
                    var reader = ByteReader(fragment[tfhd.payloadRange])
                    guard reader.readUInt8() != nil, let flags = reader.readUInt24() else { continue }
                    if flags & 0x000001 != 0 {
                        throw PackagingError(
                            .layoutNotSupported,
                            "a tfhd uses absolute base_data_offset, so inserting the poster's emsg would shift every sample reference; re-package with default-base-is-moof (CMAF requires it)"
                        )
                    }
                }
            }
        }
    }
}

/// Segment index box (ISO/IEC 14496-12 §8.16.3) offsets, moved along with the boxes they point at.
enum SegmentIndex {
    /// Rewrites first_offset and each referenced_size of `sidx` in `output` when every referenced
    /// range starts and ends on a top-level box boundary; otherwise leaves the box as it was.
    static func remap(
        sidx: ISOBox, in original: [UInt8], newBoxStart: Int, boundaryMap: [Int: Int], output: inout [UInt8]
    ) {
        var reader = ByteReader(original[sidx.payloadRange])
        guard let version = reader.readUInt8(), reader.skip(3 + 4 + 4) else { return }
        let firstOffsetPosition = reader.position + (version == 0 ? 4 : 8)
        guard reader.skip(version == 0 ? 4 : 8),
            let firstOffset = version == 0 ? reader.readUInt32().map(UInt64.init) : reader.readUInt64(),
            reader.skip(2), let count = reader.readUInt16()
        else { return }
        var sizes: [(position: Int, type: UInt32, size: Int)] = []
        for _ in 0..<count {
            let position = reader.position
            guard let word = reader.readUInt32(), reader.skip(8) else { return }
            sizes.append((position, word & 0x8000_0000, Int(word & 0x7FFF_FFFF)))
        }
        guard firstOffset < UInt64(Int.max / 2) else { return }
        let oldAnchor = sidx.range.upperBound
        let newAnchor = newBoxStart + sidx.range.count
        var start = oldAnchor + Int(firstOffset)
        guard let newFirst = boundaryMap[start] else { return }
        var patches: [(Int, Int, UInt32)] = []  // (position, byte count, value)
        let newFirstOffset = newFirst - newAnchor
        guard newFirstOffset >= 0, version == 1 || newFirstOffset <= Int(UInt32.max) else { return }
        var mappedStart = newFirst
        for reference in sizes {
            let end = start + reference.size
            guard let mappedEnd = boundaryMap[end], mappedEnd - mappedStart <= 0x7FFF_FFFF else { return }
            patches.append((reference.position, 4, reference.type | UInt32(mappedEnd - mappedStart)))
            start = end
            mappedStart = mappedEnd
        }
        // Positions are indices into `original`; the box sits at newBoxStart in the output.
        let shift = newBoxStart - sidx.range.lowerBound
        if version == 0 {
            write(UInt64(newFirstOffset), byteCount: 4, at: firstOffsetPosition + shift, into: &output)
        } else {
            write(UInt64(newFirstOffset), byteCount: 8, at: firstOffsetPosition + shift, into: &output)
        }
        for (position, byteCount, value) in patches {
            write(UInt64(value), byteCount: byteCount, at: position + shift, into: &output)
        }
    }

    private static func write(_ value: UInt64, byteCount: Int, at index: Int, into bytes: inout [UInt8]) {
        for byte in 0..<byteCount {
            bytes[index + byte] = UInt8(truncatingIfNeeded: value >> UInt64(8 * (byteCount - 1 - byte)))
        }
    }
}
