/// What the value is, for the platform's autofill (`autocomplete email`): one of the WHATWG
/// HTML autofill field names, spelled as in HTML (the raw value), in the standard's order.
///
/// A web page puts the raw value in the `autocomplete` attribute as is;
/// ``uiTextContentTypeName`` names the UIKit content type that means the same, for an app.
/// The section (`section-…`), address-group (`shipping`, `billing`) and contact-kind
/// (`home`, `work`, `mobile`…) tokens that HTML allows in front of a name are left out:
/// they describe where a field stands in one form, not what a value of the type is.
public enum Autocomplete: String, Sendable, Hashable, CaseIterable, Codable {
    case name, honorificPrefix = "honorific-prefix", givenName = "given-name",
         additionalName = "additional-name", familyName = "family-name",
         honorificSuffix = "honorific-suffix", nickname, username, newPassword = "new-password",
         currentPassword = "current-password", oneTimeCode = "one-time-code",
         organizationTitle = "organization-title", organization, streetAddress = "street-address",
         addressLine1 = "address-line1", addressLine2 = "address-line2", addressLine3 = "address-line3",
         addressLevel4 = "address-level4", addressLevel3 = "address-level3",
         addressLevel2 = "address-level2", addressLevel1 = "address-level1", country,
         countryName = "country-name", postalCode = "postal-code", ccName = "cc-name",
         ccGivenName = "cc-given-name", ccAdditionalName = "cc-additional-name",
         ccFamilyName = "cc-family-name", ccNumber = "cc-number", ccExp = "cc-exp",
         ccExpMonth = "cc-exp-month", ccExpYear = "cc-exp-year", ccCSC = "cc-csc", ccType = "cc-type",
         transactionCurrency = "transaction-currency", transactionAmount = "transaction-amount",
         language, bday, bdayDay = "bday-day", bdayMonth = "bday-month", bdayYear = "bday-year",
         sex, url, photo, tel, telCountryCode = "tel-country-code", telNational = "tel-national",
         telAreaCode = "tel-area-code", telLocal = "tel-local", telLocalPrefix = "tel-local-prefix",
         telLocalSuffix = "tel-local-suffix", telExtension = "tel-extension", email, impp

    /// The name of the `UITextContentType` constant that means the same (`emailAddress` for
    /// `email`, so `UITextContentType.emailAddress`), or nil when UIKit has none (`sex`,
    /// `photo`, the parts of a telephone number…), in which case an app sets no content type.
    public var uiTextContentTypeName: String? {
        switch self {
        case .name: "name"
        case .honorificPrefix: "namePrefix"
        case .givenName: "givenName"
        case .additionalName: "middleName"
        case .familyName: "familyName"
        case .honorificSuffix: "nameSuffix"
        case .nickname: "nickname"
        case .username: "username"
        case .newPassword: "newPassword"
        case .currentPassword: "password"
        case .oneTimeCode: "oneTimeCode"
        case .organizationTitle: "jobTitle"
        case .organization: "organizationName"
        case .streetAddress: "fullStreetAddress"
        case .addressLine1: "streetAddressLine1"
        case .addressLine2: "streetAddressLine2"
        case .addressLevel3: "sublocality"
        case .addressLevel2: "addressCity"
        case .addressLevel1: "addressState"
        case .countryName: "countryName"
        case .postalCode: "postalCode"
        case .ccName: "creditCardName"
        case .ccGivenName: "creditCardGivenName"
        case .ccAdditionalName: "creditCardMiddleName"
        case .ccFamilyName: "creditCardFamilyName"
        case .ccNumber: "creditCardNumber"
        case .ccExp: "creditCardExpiration"
        case .ccExpMonth: "creditCardExpirationMonth"
        case .ccExpYear: "creditCardExpirationYear"
        case .ccCSC: "creditCardSecurityCode"
        case .ccType: "creditCardType"
        case .bday: "birthdate"
        case .bdayDay: "birthdateDay"
        case .bdayMonth: "birthdateMonth"
        case .bdayYear: "birthdateYear"
        case .url: "URL"
        case .tel: "telephoneNumber"
        case .email: "emailAddress"
        case .addressLine3, .addressLevel4, .country, .transactionCurrency, .transactionAmount,
             .language, .sex, .photo, .telCountryCode, .telNational, .telAreaCode, .telLocal,
             .telLocalPrefix, .telLocalSuffix, .telExtension, .impp: nil
        }
    }

    /// Words people write for a field name that no spelling fix reaches (`phone` is 4 edits
    /// from `tel`), with the name they mean; the unknown-name diagnostic offers it as a fix-it.
    static let commonMistakes: [String: Autocomplete] = [
        "phone": .tel, "telephone": .tel, "mobile": .tel, "zip": .postalCode, "zipcode": .postalCode,
        "postcode": .postalCode, "password": .currentPassword, "birthday": .bday, "birthdate": .bday,
        "first-name": .givenName, "last-name": .familyName, "surname": .familyName,
        "credit-card": .ccNumber, "card-number": .ccNumber, "cvv": .ccCSC, "cvc": .ccCSC,
        "otp": .oneTimeCode, "e-mail": .email,
    ]
}
