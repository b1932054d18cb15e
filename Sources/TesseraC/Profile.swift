import CTessera
import Tessera

final class ProfileHandle: CHandle {
    let profile: Profile
    init(_ profile: Profile) { self.profile = profile }
}

/// A ':'-separated directory list, or the defaults for NULL.
func fontDirectories(_ dirs: UnsafePointer<CChar>?, _ length: Int64) throws(CFailure) -> [String] {
    guard dirs != nil else { return Profile.defaultFontDirectories }
    let s = try utf8String(dirs, length, "font_dirs")
    return s.split(separator: ":", omittingEmptySubsequences: true).map(String.init)
}

func platform(_ value: Int32, _ argument: StaticString) throws(CFailure) -> LayoutEnvironment.Platform {
    switch value {
    case TESS_PLATFORM_IOS: .ios
    case TESS_PLATFORM_ANDROID: .android
    default: throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "\(argument) \(value) is not TESS_PLATFORM_IOS or TESS_PLATFORM_ANDROID")
    }
}

@c @implementation
public func tess_profile_load_path(_ path: UnsafePointer<CChar>?, _ pathLength: Int64, _ dirs: UnsafePointer<CChar>?, _ dirsLength: Int64, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> tess_status {
    runWithoutHandle("tess_profile_load_path") { () throws(CFailure) in
        let out = try required(out, "out")
        out.pointee = nil
        let path = try utf8String(path, pathLength, "path")
        let directories = try fontDirectories(dirs, dirsLength)
        let profile = try core("path") { () throws(TesseraError) in try Profile.load(path: path, fontDirectories: directories) }
        out.pointee = ProfileHandle(profile).retainedPointer()
    }
}

@c @implementation
public func tess_profile_load_bytes(_ json: UnsafePointer<CChar>?, _ byteCount: Int64, _ dirs: UnsafePointer<CChar>?, _ dirsLength: Int64, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> tess_status {
    runWithoutHandle("tess_profile_load_bytes") { () throws(CFailure) in
        let out = try required(out, "out")
        out.pointee = nil
        let json = try required(json, "json")
        let n = try nonNegative(byteCount, "byte_count")
        let directories = try fontDirectories(dirs, dirsLength)
        let profile = try core("json") { () throws(TesseraError) in
            try Profile(json: UnsafeRawBufferPointer(start: json, count: n), fontDirectories: directories)
        }
        out.pointee = ProfileHandle(profile).retainedPointer()
    }
}

@c @implementation
public func tess_profile_load_bytes_with_fonts(
    _ json: UnsafePointer<CChar>?, _ byteCount: Int64, _ fileNames: UnsafePointer<UnsafePointer<CChar>?>?,
    _ fileNameLengths: UnsafePointer<Int64>?, _ fonts: UnsafePointer<OpaquePointer?>?, _ fontCount: Int64,
    _ dirs: UnsafePointer<CChar>?, _ dirsLength: Int64, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> tess_status {
    runWithoutHandle("tess_profile_load_bytes_with_fonts") { () throws(CFailure) in
        let out = try required(out, "out")
        out.pointee = nil
        let json = try required(json, "json")
        let n = try nonNegative(byteCount, "byte_count")
        let count = try nonNegative(fontCount, "font_count")
        let names = try inputArray(fileNames, count, "file_names")
        let lengths = try inputArray(fileNameLengths, count, "file_name_lengths")
        let handles = try inputArray(fonts, count, "fonts")
        var byFile: [String: Font] = [:]
        for i in 0..<count {
            let file = try utf8String(names[i], lengths[i], "file_names")
            guard let font = FontHandle.object(handles[i]) else {
                throw CFailure(TESS_ERROR_NULL_ARGUMENT, "fonts[\(i)] is NULL")
            }
            guard byFile.updateValue(font.font, forKey: file) == nil else {
                throw CFailure(TESS_ERROR_INVALID_ARGUMENT, "file_names[\(i)] \"\(file)\" is given twice")
            }
        }
        let directories = try fontDirectories(dirs, dirsLength)
        let profile = try core("json") { () throws(TesseraError) in
            try Profile(json: UnsafeRawBufferPointer(start: json, count: n), fonts: byFile, fontDirectories: directories)
        }
        out.pointee = ProfileHandle(profile).retainedPointer()
    }
}

@c @implementation
public func tess_profile_destroy(_ profile: OpaquePointer?) { ProfileHandle.destroy(profile) }

@c @implementation
public func tess_profile_get_name(_ profile: OpaquePointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int64, _ length: UnsafeMutablePointer<Int64>?) -> tess_status {
    guard let p = ProfileHandle.object(profile) else { return nullHandle("tess_profile_get_name", "profile") }
    return p.run("tess_profile_get_name") { () throws(CFailure) in
        try writeString(p.profile.name, buffer, capacity, length)
    }
}

@c @implementation
public func tess_profile_kind_count(_ profile: OpaquePointer?, _ count: UnsafeMutablePointer<Int64>?) -> tess_status {
    guard let p = ProfileHandle.object(profile) else { return nullHandle("tess_profile_kind_count", "profile") }
    return p.run("tess_profile_kind_count") { () throws(CFailure) in
        try required(count, "count").pointee = Int64(p.profile.kinds.count)
    }
}

extension ProfileHandle {
    func kind(_ index: Int64) throws(CFailure) -> CellKind {
        guard index >= 0, index < Int64(profile.kinds.count) else {
            throw CFailure(TESS_ERROR_OUT_OF_RANGE, "index \(index) out of bounds for \(profile.kinds.count) kinds")
        }
        return profile.kinds[Int(index)]
    }

    func slot(_ index: Int64, _ slot: Int64) throws(CFailure) -> CellKind.Slot {
        let k = try kind(index)
        guard slot >= 0, slot < Int64(k.slots.count) else {
            throw CFailure(TESS_ERROR_OUT_OF_RANGE, "slot \(slot) out of bounds for the \(k.slots.count) slots of kind \(k.name)")
        }
        return k.slots[Int(slot)]
    }
}

@c @implementation
public func tess_profile_kind_info(_ profile: OpaquePointer?, _ index: Int64, _ out: UnsafeMutablePointer<tess_kind_info>?) -> tess_status {
    guard let p = ProfileHandle.object(profile) else { return nullHandle("tess_profile_kind_info", "profile") }
    return p.run("tess_profile_kind_info") { () throws(CFailure) in
        let out = try required(out, "out")
        let k = try p.kind(index)
        let role: Int32 = switch k.role {
        case .cell: TESS_KIND_ROLE_CELL
        case .header: TESS_KIND_ROLE_HEADER
        case .footer: TESS_KIND_ROLE_FOOTER
        }
        out.pointee = tess_kind_info(
            code: k.code, reserved: 0, role: role, sticky: k.isSticky ? 1 : 0, value_count: Int32(k.valueCount),
            slot_count: Int32(k.slots.count), reserved2: 0, estimated_height_ios: k.estimatedHeight(on: .ios),
            estimated_height_android: k.estimatedHeight(on: .android))
    }
}

@c @implementation
public func tess_profile_kind_name(_ profile: OpaquePointer?, _ index: Int64, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int64, _ length: UnsafeMutablePointer<Int64>?) -> tess_status {
    guard let p = ProfileHandle.object(profile) else { return nullHandle("tess_profile_kind_name", "profile") }
    return p.run("tess_profile_kind_name") { () throws(CFailure) in
        try writeString(try p.kind(index).name, buffer, capacity, length)
    }
}

func slotType(_ name: String) -> Int32 {
    switch name {
    case "text": TESS_SLOT_TEXT
    case "textList": TESS_SLOT_TEXT_LIST
    case "button": TESS_SLOT_BUTTON
    case "box": TESS_SLOT_BOX
    case "image": TESS_SLOT_IMAGE
    case "boxStack": TESS_SLOT_BOX_STACK
    default: -1
    }
}

@c @implementation
public func tess_profile_slot_info(_ profile: OpaquePointer?, _ index: Int64, _ slot: Int64, _ out: UnsafeMutablePointer<tess_slot_info>?) -> tess_status {
    guard let p = ProfileHandle.object(profile) else { return nullHandle("tess_profile_slot_info", "profile") }
    return p.run("tess_profile_slot_info") { () throws(CFailure) in
        let out = try required(out, "out")
        let s = try p.slot(index, slot)
        out.pointee = tess_slot_info(
            type: slotType(s.type), value_index: Int32(s.valueIndex ?? -1), required: s.isRequired ? 1 : 0, reserved: 0)
    }
}

@c @implementation
public func tess_profile_slot_name(_ profile: OpaquePointer?, _ index: Int64, _ slot: Int64, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int64, _ length: UnsafeMutablePointer<Int64>?) -> tess_status {
    guard let p = ProfileHandle.object(profile) else { return nullHandle("tess_profile_slot_name", "profile") }
    return p.run("tess_profile_slot_name") { () throws(CFailure) in
        try writeString(try p.slot(index, slot).name, buffer, capacity, length)
    }
}

@c @implementation
public func tess_profile_estimated_heights(_ profile: OpaquePointer?, _ platformValue: Int32, _ heights: UnsafeMutablePointer<Double>?, _ capacity: Int64, _ count: UnsafeMutablePointer<Int64>?) -> tess_status {
    guard let p = ProfileHandle.object(profile) else { return nullHandle("tess_profile_estimated_heights", "profile") }
    return p.run("tess_profile_estimated_heights") { () throws(CFailure) in
        let count = try required(count, "count")
        let out = try outputBuffer(heights, capacity, "heights")
        let values = p.profile.estimatedHeights(platform: try platform(platformValue, "platform"))
        try fits(values.count, out.count, count, "heights")
        for (i, h) in values.enumerated() { out[i] = h }
    }
}
