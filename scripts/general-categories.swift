// Prints the general category of every Unicode scalar as the Swift standard library knows
// it, for scripts/generate-unicode-tables.py: the newest Unicode version it knows, then
// the runs `start:index` (hex) over 0…10FFFF, surrogates taking the category before them.
// The order of the indices is GeneralCategory's in Sources/FormularyRules/Pattern.
let order: [Unicode.GeneralCategory] = [
    .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
    .nonspacingMark, .spacingMark, .enclosingMark,
    .decimalNumber, .letterNumber, .otherNumber,
    .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
    .initialPunctuation, .finalPunctuation, .otherPunctuation,
    .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol,
    .spaceSeparator, .lineSeparator, .paragraphSeparator,
    .control, .format, .surrogate, .privateUse, .unassigned,
]
var runs: [String] = []
var previous = -1
var newest = (major: 0, minor: 0)
for value in UInt32(0)...0x10FFFF {
    guard let scalar = Unicode.Scalar(value) else { continue }
    if let age = scalar.properties.age, (age.major, age.minor) > (newest.major, newest.minor) { newest = age }
    let index = order.firstIndex(of: scalar.properties.generalCategory)!
    if index != previous {
        runs.append(String(value, radix: 16) + ":" + String(index, radix: 16))
        previous = index
    }
}
print("\(newest.major).\(newest.minor)")
print(runs.joined(separator: ","))
