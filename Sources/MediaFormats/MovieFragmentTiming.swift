/// The decode times of the track fragments of an fMP4 segment (ISO/IEC 14496-12 §8.8), read from
/// the boxes themselves: each track's first `tfdt` (baseMediaDecodeTime) and where its last
/// fragment ends — that fragment's `tfdt` plus the durations of its samples, given per sample in
/// `trun`, else by the `tfhd` default, else by the init section's `trex` default.
///
/// libavformat's packet timestamps are not this: its mov demuxer shifts them by the edit list
/// and leaves the duration of a fragment's last sample unset, and AS 7.3 is about the boxes.
package enum MovieFragmentTiming {
    /// One track's place on its decode timeline, in its timescale.
    package struct Track: Sendable, Hashable {
        /// track_ID (tfhd).
        package var trackID: UInt32
        /// The first fragment's baseMediaDecodeTime.
        package var start: UInt64
        /// The last fragment's baseMediaDecodeTime plus the durations of its samples.
        package var end: UInt64
    }

    /// A `moof` larger than this is not read (its `trun` tables would describe millions of
    /// samples); a segment's is a few kilobytes.
    package static let maximumMovieFragmentBytes = 4 << 20

    /// default_sample_duration of each track's `trex` (moov/mvex/trex, §8.8.3) in an init section.
    package static func defaultDurations(initSection bytes: ArraySlice<UInt8>) -> [UInt32: UInt32] {
        var defaults: [UInt32: UInt32] = [:]
        for moov in children(of: bytes) where moov.type == "moov" {
            for mvex in children(of: moov.payload) where mvex.type == "mvex" {
                for trex in children(of: mvex.payload) where trex.type == "trex" {
                    var reader = ByteReader(trex.payload)
                    // version and flags, track_ID, default_sample_description_index, default_sample_duration
                    guard reader.skip(4), let track = reader.readUInt32(), reader.skip(4),
                        let duration = reader.readUInt32()
                    else { continue }
                    defaults[track] = duration
                }
            }
        }
        return defaults
    }

    /// Each track of the segment under `cursor`, in the order its first fragment appears; empty
    /// when no `moof` has a `traf` with a `tfdt`. Walks the top-level boxes by their headers (an
    /// `mdat` of any size is stepped over) and reads each `moof` whole.
    package static func tracks(in cursor: ByteCursor, defaultDurations: [UInt32: UInt32]) -> [Track] {
        var tracks: [Track] = []
        while cursor.remaining >= 8 {
            var reader = ByteReader(cursor.peek(16))
            guard let size32 = reader.readUInt32(), let type = reader.readBytes(4) else { break }
            var size = UInt64(size32)
            if size32 == 1 {
                guard let large = reader.readUInt64() else { break }
                size = large
            } else if size32 == 0 {
                size = UInt64(cursor.remaining)
            }
            guard size >= UInt64(reader.offset), size <= UInt64(cursor.remaining) else { break }
            if type.elementsEqual("moof".utf8), size <= UInt64(maximumMovieFragmentBytes) {
                let box = cursor.peek(Int(size))
                for traf in children(of: box.dropFirst(reader.offset)) where traf.type == "traf" {
                    guard let fragment = trackFragment(traf.payload, defaultDurations: defaultDurations) else {
                        continue
                    }
                    if let index = tracks.firstIndex(where: { $0.trackID == fragment.trackID }) {
                        tracks[index].end = fragment.end
                    } else {
                        tracks.append(fragment)
                    }
                }
            }
            cursor.advance(by: Int(size))
        }
        return tracks
    }

    /// One `traf`: its track, its `tfdt` and the end of its samples; nil without `tfhd` or
    /// `tfdt`, or when a sample's duration is given nowhere.
    static func trackFragment(_ traf: ArraySlice<UInt8>, defaultDurations: [UInt32: UInt32]) -> Track? {
        var trackID: UInt32?
        var fragmentDefault: UInt32?
        var start: UInt64?
        var total: UInt64 = 0
        var runs: [ArraySlice<UInt8>] = []
        for box in children(of: traf) {
            var reader = ByteReader(box.payload)
            switch box.type {
            case "tfhd":
                // §8.8.7: flags 0x1 base-data-offset (64 bits), 0x2 sample-description-index,
                // 0x8 default-sample-duration.
                guard reader.skip(1), let flags = reader.readUInt24(), let track = reader.readUInt32() else {
                    return nil
                }
                trackID = track
                if flags & 0x1 != 0 { guard reader.skip(8) else { return nil } }
                if flags & 0x2 != 0 { guard reader.skip(4) else { return nil } }
                if flags & 0x8 != 0 { fragmentDefault = reader.readUInt32() }
            case "tfdt":
                // §8.8.12: version 1 has a 64-bit time.
                guard let version = reader.readUInt8(), reader.skip(3) else { return nil }
                start = version == 1 ? reader.readUInt64() : reader.readUInt32().map(UInt64.init)
            case "trun":
                runs.append(box.payload)
            default:
                break
            }
        }
        guard let trackID, let start else { return nil }
        let fallback = fragmentDefault ?? defaultDurations[trackID]
        for run in runs {
            // §8.8.8: flags 0x1 data-offset, 0x4 first-sample-flags, then per sample 0x100
            // duration, 0x200 size, 0x400 flags, 0x800 composition time offset.
            var reader = ByteReader(run)
            guard reader.skip(1), let flags = reader.readUInt24(), let count = reader.readUInt32() else { return nil }
            if flags & 0x1 != 0 { guard reader.skip(4) else { return nil } }
            if flags & 0x4 != 0 { guard reader.skip(4) else { return nil } }
            let perSample = [0x100, 0x200, 0x400, 0x800].filter { flags & $0 != 0 }.count * 4
            guard UInt64(count) * UInt64(perSample) <= UInt64(reader.remainingCount) else { return nil }
            if flags & 0x100 == 0 {
                guard let fallback else { return nil }
                let (run, overflow) = UInt64(count).multipliedReportingOverflow(by: UInt64(fallback))
                guard !overflow, UInt64.max - total >= run else { return nil }
                total += run
                continue
            }
            // Bounded by the box's size (checked above); 32-bit durations cannot overflow 64 bits.
            for _ in 0..<count {
                guard let duration = reader.readUInt32(), reader.skip(perSample - 4) else { return nil }
                total += UInt64(duration)
            }
        }
        let (end, overflow) = start.addingReportingOverflow(total)
        return overflow ? nil : Track(trackID: trackID, start: start, end: end)
    }

    /// The boxes directly inside `bytes` (a box's payload, or a whole file), in order; a box
    /// whose size runs past the end ends the list.
    static func children(of bytes: ArraySlice<UInt8>) -> [(type: String, payload: ArraySlice<UInt8>)] {
        var boxes: [(type: String, payload: ArraySlice<UInt8>)] = []
        var reader = ByteReader(bytes)
        while reader.remainingCount >= 8 {
            let boxStart = reader.offset
            guard let size32 = reader.readUInt32(), let type = reader.readBytes(4) else { break }
            var size = UInt64(size32)
            if size32 == 1 {
                guard let large = reader.readUInt64() else { break }
                size = large
            } else if size32 == 0 {
                size = UInt64(reader.remainingCount + reader.offset - boxStart)
            }
            let header = reader.offset - boxStart
            guard size >= UInt64(header), size - UInt64(header) <= UInt64(reader.remainingCount),
                let payload = reader.readBytes(Int(size) - header)
            else { break }
            boxes.append((String(decoding: type, as: UTF8.self), payload))
        }
        return boxes
    }
}
