// The currencies: ISO 4217's codes with their minor units, and the signs € $ £ ¥.

/// A currency of the built-in table: its code, the decimals an amount in it shows, its name,
/// and the signs that also write it.
package struct Currency: Sendable {
  package let code: String
  /// ISO 4217's minor units (EUR 2, JPY 0, KWD 3); nil where it has none (gold, `XAU`).
  package let minorUnits: Int?
  package let title: String
  package let signs: [String]

  /// ISO 4217 (List One, as published in 2025): every current currency and fund code, and the
  /// precious metals and the SDR, which have no minor units. Left out: the testing code `XTS`,
  /// "no currency" `XXX`, the bond-market units `XBA`–`XBD`, and withdrawn codes (`HRK`,
  /// `ANG`, `SLL`, `ZWL`, `CUC`). One line per code: the code, its minor units (`-`: none), its
  /// name.
  private static let list = """
    AED 2 UAE dirham
    AFN 2 Afghan afghani
    ALL 2 Albanian lek
    AMD 2 Armenian dram
    AOA 2 Angolan kwanza
    ARS 2 Argentine peso
    AUD 2 Australian dollar
    AWG 2 Aruban florin
    AZN 2 Azerbaijani manat
    BAM 2 Bosnia and Herzegovina convertible mark
    BBD 2 Barbados dollar
    BDT 2 Bangladeshi taka
    BGN 2 Bulgarian lev
    BHD 3 Bahraini dinar
    BIF 0 Burundian franc
    BMD 2 Bermudian dollar
    BND 2 Brunei dollar
    BOB 2 boliviano
    BOV 2 Bolivian Mvdol
    BRL 2 Brazilian real
    BSD 2 Bahamian dollar
    BTN 2 Bhutanese ngultrum
    BWP 2 Botswana pula
    BYN 2 Belarusian ruble
    BZD 2 Belize dollar
    CAD 2 Canadian dollar
    CDF 2 Congolese franc
    CHE 2 WIR euro
    CHF 2 Swiss franc
    CHW 2 WIR franc
    CLF 4 Chilean unit of account (UF)
    CLP 0 Chilean peso
    CNY 2 renminbi (yuan)
    COP 2 Colombian peso
    COU 2 Colombian unit of real value
    CRC 2 Costa Rican colón
    CUP 2 Cuban peso
    CVE 2 Cape Verdean escudo
    CZK 2 Czech koruna
    DJF 0 Djiboutian franc
    DKK 2 Danish krone
    DOP 2 Dominican peso
    DZD 2 Algerian dinar
    EGP 2 Egyptian pound
    ERN 2 Eritrean nakfa
    ETB 2 Ethiopian birr
    EUR 2 euro
    FJD 2 Fiji dollar
    FKP 2 Falkland Islands pound
    GBP 2 pound sterling
    GEL 2 Georgian lari
    GHS 2 Ghanaian cedi
    GIP 2 Gibraltar pound
    GMD 2 Gambian dalasi
    GNF 0 Guinean franc
    GTQ 2 Guatemalan quetzal
    GYD 2 Guyanese dollar
    HKD 2 Hong Kong dollar
    HNL 2 Honduran lempira
    HTG 2 Haitian gourde
    HUF 2 Hungarian forint
    IDR 2 Indonesian rupiah
    ILS 2 Israeli new shekel
    INR 2 Indian rupee
    IQD 3 Iraqi dinar
    IRR 2 Iranian rial
    ISK 0 Icelandic króna
    JMD 2 Jamaican dollar
    JOD 3 Jordanian dinar
    JPY 0 Japanese yen
    KES 2 Kenyan shilling
    KGS 2 Kyrgyzstani som
    KHR 2 Cambodian riel
    KMF 0 Comoro franc
    KPW 2 North Korean won
    KRW 0 South Korean won
    KWD 3 Kuwaiti dinar
    KYD 2 Cayman Islands dollar
    KZT 2 Kazakhstani tenge
    LAK 2 Lao kip
    LBP 2 Lebanese pound
    LKR 2 Sri Lankan rupee
    LRD 2 Liberian dollar
    LSL 2 Lesotho loti
    LYD 3 Libyan dinar
    MAD 2 Moroccan dirham
    MDL 2 Moldovan leu
    MGA 2 Malagasy ariary
    MKD 2 Macedonian denar
    MMK 2 Myanmar kyat
    MNT 2 Mongolian tögrög
    MOP 2 Macanese pataca
    MRU 2 Mauritanian ouguiya
    MUR 2 Mauritian rupee
    MVR 2 Maldivian rufiyaa
    MWK 2 Malawian kwacha
    MXN 2 Mexican peso
    MXV 2 Mexican unidad de inversión
    MYR 2 Malaysian ringgit
    MZN 2 Mozambican metical
    NAD 2 Namibian dollar
    NGN 2 Nigerian naira
    NIO 2 Nicaraguan córdoba
    NOK 2 Norwegian krone
    NPR 2 Nepalese rupee
    NZD 2 New Zealand dollar
    OMR 3 Omani rial
    PAB 2 Panamanian balboa
    PEN 2 Peruvian sol
    PGK 2 Papua New Guinean kina
    PHP 2 Philippine peso
    PKR 2 Pakistani rupee
    PLN 2 Polish złoty
    PYG 0 Paraguayan guaraní
    QAR 2 Qatari riyal
    RON 2 Romanian leu
    RSD 2 Serbian dinar
    RUB 2 Russian ruble
    RWF 0 Rwandan franc
    SAR 2 Saudi riyal
    SBD 2 Solomon Islands dollar
    SCR 2 Seychelles rupee
    SDG 2 Sudanese pound
    SEK 2 Swedish krona
    SGD 2 Singapore dollar
    SHP 2 Saint Helena pound
    SLE 2 Sierra Leonean leone
    SOS 2 Somali shilling
    SRD 2 Surinamese dollar
    SSP 2 South Sudanese pound
    STN 2 São Tomé and Príncipe dobra
    SVC 2 Salvadoran colón
    SYP 2 Syrian pound
    SZL 2 Swazi lilangeni
    THB 2 Thai baht
    TJS 2 Tajikistani somoni
    TMT 2 Turkmenistan manat
    TND 3 Tunisian dinar
    TOP 2 Tongan paʻanga
    TRY 2 Turkish lira
    TTD 2 Trinidad and Tobago dollar
    TWD 2 New Taiwan dollar
    TZS 2 Tanzanian shilling
    UAH 2 Ukrainian hryvnia
    UGX 0 Ugandan shilling
    USD 2 United States dollar
    USN 2 United States dollar (next day)
    UYI 0 Uruguay peso en unidades indexadas
    UYU 2 Uruguayan peso
    UYW 4 Uruguayan nominal wage index unit
    UZS 2 Uzbekistani sum
    VED 2 Venezuelan digital bolívar
    VES 2 Venezuelan sovereign bolívar
    VND 0 Vietnamese đồng
    VUV 0 Vanuatu vatu
    WST 2 Samoan tālā
    XAF 0 Central African CFA franc
    XAG - silver (one troy ounce)
    XAU - gold (one troy ounce)
    XCD 2 East Caribbean dollar
    XCG 2 Caribbean guilder
    XDR - special drawing right
    XOF 0 West African CFA franc
    XPD - palladium (one troy ounce)
    XPF 0 CFP franc
    XPT - platinum (one troy ounce)
    XSU - SUCRE
    XUA - ADB unit of account
    YER 2 Yemeni rial
    ZAR 2 South African rand
    ZMW 2 Zambian kwacha
    ZWG 2 Zimbabwe Gold
    """

  /// The signs that also write a currency: `€` is `EUR`.
  private static let signs: [String: [String]] = ["EUR": ["€"], "USD": ["$"], "GBP": ["£"], "JPY": ["¥"]]

  /// Every currency, in the order of its code.
  package static let table: [Currency] = list.split(separator: "\n").map { line in
    let parts = line.split(separator: " ", maxSplits: 2)
    let code = String(parts[0])
    return Currency(
      code: code, minorUnits: Int(parts[1]), title: parts.count > 2 ? String(parts[2]) : code, signs: signs[code] ?? [])
  }

  /// The currencies as table units, the first at index `first` of `UnitTable.atoms`: each its
  /// own dimension, a base by its index, with a factor of 1 (one of it in itself).
  static func atoms(from first: Int) -> [UnitAtom] {
    table.enumerated().map { k, currency in
      UnitAtom(
        [currency.code] + currency.signs, title: currency.title, Dimension(ownBase: first + k), Exact(1),
        currency: true, minorUnits: currency.minorUnits)
    }
  }
}
