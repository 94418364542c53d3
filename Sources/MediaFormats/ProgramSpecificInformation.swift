/// Program Association and Program Map sections (ISO/IEC 13818-1 §2.4.4.3 table 2-30,
/// §2.4.4.8 table 2-33), with the timed-ID3 descriptors of §2.6.58 (metadata_pointer_descriptor)
/// and §2.6.60 (metadata_descriptor) as used by Apple's "Timed Metadata for HTTP Live Streaming".
package struct ProgramAssociationSection: Sendable, Hashable {
    /// program_number → program_map_PID (program 0, the network PID, is left out).
    package var programs: [UInt16: UInt16]

    /// Parses a section starting at table_id; nil if it is not a valid PAT (CRC included).
    package init?(_ section: ArraySlice<UInt8>) {
        guard let body = PSISection.validatedBody(section, tableID: 0x00) else { return nil }
        var reader = ByteReader(body)
        var programs: [UInt16: UInt16] = [:]
        while let number = reader.readUInt16(), let pid = reader.readUInt16() {
            if number != 0 { programs[number] = pid & 0x1FFF }
        }
        self.programs = programs
    }
}

/// One elementary stream of a program map section (ISO/IEC 13818-1 table 2-33).
package struct ElementaryStreamInfo: Sendable, Hashable {
    /// 0x0F ADTS AAC, 0x03/0x04 MPEG audio, 0x81 AC-3, 0x87 E-AC-3, 0x15 metadata in PES, …
    package var streamType: UInt8
    /// elementary_PID (13 bits).
    package var pid: UInt16
    /// ES_info descriptors, raw.
    package var descriptors: [UInt8]

    /// Makes an entry; `descriptors` are the raw ES_info bytes.
    package init(streamType: UInt8, pid: UInt16, descriptors: [UInt8] = []) {
        self.streamType = streamType
        self.pid = pid
        self.descriptors = descriptors
    }

    /// Timed ID3: stream_type 0x15 (metadata carried in PES), or any stream whose
    /// metadata_descriptor names the 'ID3 ' format.
    package var carriesTimedID3: Bool {
        streamType == 0x15 || TimedID3Descriptors.containsID3MetadataDescriptor(descriptors)
    }
}

/// A program map section (PMT, ISO/IEC 13818-1 §2.4.4.8 table 2-33).
package struct ProgramMapSection: Sendable, Hashable {
    /// program_number.
    package var programNumber: UInt16
    /// version_number (5 bits).
    package var versionNumber: UInt8
    /// PCR_PID (13 bits).
    package var pcrPID: UInt16
    /// program_info descriptors, raw.
    package var programInfo: [UInt8]
    /// The elementary streams, in section order.
    package var streams: [ElementaryStreamInfo]

    /// Makes a section to serialise.
    package init(
        programNumber: UInt16 = 1, versionNumber: UInt8 = 0, pcrPID: UInt16,
        programInfo: [UInt8] = [], streams: [ElementaryStreamInfo]
    ) {
        self.programNumber = programNumber
        self.versionNumber = versionNumber
        self.pcrPID = pcrPID
        self.programInfo = programInfo
        self.streams = streams
    }

    /// Parses a section starting at table_id; nil if it is not a valid PMT (CRC included).
    package init?(_ section: ArraySlice<UInt8>) {
        guard section.count >= 5, let body = PSISection.validatedBody(section, tableID: 0x02) else { return nil }
        let s = section.startIndex
        programNumber = UInt16(section[s + 3]) << 8 | UInt16(section[s + 4])
        versionNumber = (section[s + 5] >> 1) & 0x1F
        var reader = ByteReader(body)
        guard let pcr = reader.readUInt16(), let infoLength = reader.readUInt16(),
            let info = reader.readBytes(Int(infoLength & 0x0FFF))
        else { return nil }
        pcrPID = pcr & 0x1FFF
        programInfo = Array(info)
        var streams: [ElementaryStreamInfo] = []
        while let type = reader.readUInt8(), let pid = reader.readUInt16(), let length = reader.readUInt16() {
            guard let descriptors = reader.readBytes(Int(length & 0x0FFF)) else { return nil }
            streams.append(ElementaryStreamInfo(streamType: type, pid: pid & 0x1FFF, descriptors: Array(descriptors)))
        }
        self.streams = streams
    }

    /// The complete section from table_id to CRC_32.
    package func serialized() -> [UInt8] {
        var body = ByteWriter()
        body.writeUInt16(0xE000 | (pcrPID & 0x1FFF))
        body.writeUInt16(0xF000 | UInt16(min(programInfo.count, 0x3FF)))
        body.writeBytes(programInfo.prefix(0x3FF))
        for stream in streams {
            body.writeUInt8(stream.streamType)
            body.writeUInt16(0xE000 | (stream.pid & 0x1FFF))
            body.writeUInt16(0xF000 | UInt16(min(stream.descriptors.count, 0x3FF)))
            body.writeBytes(stream.descriptors.prefix(0x3FF))
        }
        return PSISection.build(
            tableID: 0x02, tableIDExtension: programNumber,
            versionNumber: versionNumber, body: body.bytes)
    }
}

/// Builders for a PAT section (for tests and the packager).
extension ProgramAssociationSection {
    /// A complete PAT section (table_id to CRC_32) listing `programs` with their PMT PIDs.
    package static func serialized(programs: [(programNumber: UInt16, pmtPID: UInt16)], transportStreamID: UInt16 = 1)
        -> [UInt8]
    {
        var body = ByteWriter()
        for program in programs {
            body.writeUInt16(program.programNumber)
            body.writeUInt16(0xE000 | (program.pmtPID & 0x1FFF))
        }
        return PSISection.build(tableID: 0x00, tableIDExtension: transportStreamID, versionNumber: 0, body: body.bytes)
    }
}

/// Builders and readers of the timed-ID3 descriptors (ISO/IEC 13818-1 §2.6.58, §2.6.60).
package enum TimedID3Descriptors {
    static let id3: [UInt8] = Array("ID3 ".utf8)

    /// metadata_pointer_descriptor (tag 0x25, §2.6.58) for program_info: ID3 metadata carried
    /// in this transport stream, in the program `programNumber`.
    package static func metadataPointer(programNumber: UInt16) -> [UInt8] {
        var writer = ByteWriter()
        writer.writeUInt8(0x25)
        writer.writeUInt8(15)
        writer.writeUInt16(0xFFFF)  // metadata_application_format: see identifier
        writer.writeBytes(id3)  // metadata_application_format_identifier
        writer.writeUInt8(0xFF)  // metadata_format: see identifier
        writer.writeBytes(id3)  // metadata_format_identifier
        writer.writeUInt8(0)  // metadata_service_id
        writer.writeUInt8(0x1F)  // locator_record_flag 0, MPEG_carriage_flags 0, reserved
        writer.writeUInt16(programNumber)
        return writer.bytes
    }

    /// metadata_descriptor (tag 0x26, §2.6.60) for the ID3 elementary stream's ES_info.
    package static let metadata: [UInt8] = [0x26, 13, 0xFF, 0xFF] + id3 + [0xFF] + id3 + [0x00, 0x0F]

    /// Whether the descriptor loop holds a metadata_descriptor whose format is 'ID3 '.
    package static func containsID3MetadataDescriptor(_ descriptors: [UInt8]) -> Bool {
        var reader = ByteReader(descriptors)
        while let tag = reader.readUInt8(), let length = reader.readUInt8(), let body = reader.readBytes(Int(length)) {
            guard tag == 0x26 else { continue }
            var fields = ByteReader(body)
            guard let applicationFormat = fields.readUInt16() else { continue }
            if applicationFormat == 0xFFFF { fields.skip(4) }
            guard let format = fields.readUInt8() else { continue }
            if format == 0xFF, let identifier = fields.readBytes(4), identifier.elementsEqual(id3) { return true }
        }
        return false
    }
}

/// The long-form section syntax shared by PAT and PMT (§2.4.4.10 / table 2-30 header).
enum PSISection {
    /// The bytes between the section header (8 bytes) and the CRC, after checking table_id,
    /// section_syntax_indicator, length and CRC.
    static func validatedBody(_ section: ArraySlice<UInt8>, tableID: UInt8) -> ArraySlice<UInt8>? {
        guard section.count >= 12, section[section.startIndex] == tableID,
            section[section.startIndex + 1] & 0x80 != 0
        else { return nil }
        let length = Int(section[section.startIndex + 1] & 0x0F) << 8 | Int(section[section.startIndex + 2])
        guard length >= 9, 3 + length <= section.count else { return nil }
        let whole = section[section.startIndex..<(section.startIndex + 3 + length)]
        guard CRC32MPEG2.checksum(whole) == 0 else { return nil }
        return whole[(whole.startIndex + 8)..<(whole.endIndex - 4)]
    }

    static func build(tableID: UInt8, tableIDExtension: UInt16, versionNumber: UInt8, body: [UInt8]) -> [UInt8] {
        var writer = ByteWriter(capacity: body.count + 12)
        writer.writeUInt8(tableID)
        writer.writeUInt16(0xB000 | UInt16(min(5 + body.count + 4, 0x3FF)))  // syntax 1, '0', reserved
        writer.writeUInt16(tableIDExtension)
        writer.writeUInt8(0xC1 | (versionNumber & 0x1F) << 1)  // reserved, version, current_next 1
        writer.writeUInt8(0)  // section_number
        writer.writeUInt8(0)  // last_section_number
        writer.writeBytes(body)
        writer.writeUInt32(CRC32MPEG2.checksum(writer.bytes))
        return writer.bytes
    }

    /// A section in TS packets: pointer_field 0, then the section, then 0xFF stuffing (§2.4.4.2).
    static func packets(section: [UInt8], pid: UInt16, continuityCounter: inout UInt8) -> [UInt8] {
        var payload = [0] + section
        let remainder = payload.count % 184
        if remainder != 0 { payload += repeatElement(0xFF, count: 184 - remainder) }
        var out: [UInt8] = []
        var index = 0
        while index < payload.count {
            out += [
                TransportStreamPacket.syncByte, (index == 0 ? 0x40 : 0) | UInt8(pid >> 8 & 0x1F), UInt8(pid & 0xFF),
                0x10 | continuityCounter,
            ]
            out += payload[index..<(index + 184)]
            index += 184
            continuityCounter = (continuityCounter + 1) & 0x0F
        }
        return out
    }
}

extension TransportStream {
    /// A PSI section (e.g. `ProgramMapSection.serialized()`) as TS packets on `pid`.
    package static func sectionPackets(_ section: [UInt8], pid: UInt16, continuityCounter: inout UInt8) -> [UInt8] {
        PSISection.packets(section: section, pid: pid, continuityCounter: &continuityCounter)
    }
}
