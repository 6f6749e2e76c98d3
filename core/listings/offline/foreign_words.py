"""Vocabulary: marketplace words in French, Spanish, Portuguese, German, Dutch and Italian, each with the
English words the rule tables already know (heuristic-v13).

Why a glossary and not a table per language: every rule family reads English terms, and a seller in
Lyon or Porto names the same defects, claims and products ("fissuré", "auténtico", "silla de coche").
Putting the listing's words into English once, before any rule, lets every family and its negation
handling apply unchanged. Only words with one plain meaning are listed, and none that is also a
common English word ("or", "pan", "collar", "Gift", "Helm", "pour").

Each row: a regular-expression fragment matched as a whole word, case-insensitively (accents as the
seller types them, NFKC-normalised), and its English words. Longer phrases come first in their section
so "jamais porté" wins over "porté".
"""

FOREIGN_WORDS: tuple[tuple[str, str], ...] = (
    # --- condition claimed --------------------------------------------------------------------------
    ("comme neu(?:f|ve)s?|como nuev[oa]s?|como nov[oa]s?|wie neu|als nieuw|come nuov[oa]", "like new"),
    ("jamais port[ée]e?s?|nunca usad[oa]s? ni una vez|nie getragen|"
     "nooit gedragen|mai indossat[oa]", "never worn"),
    ("jamais utilisée?s?|jamais servi|nunca usad[oa]s?|nunca utilizad[oa]s?|nie benutzt|nooit gebruikt|"
     "mai usat[oa]",
     "never used"),
    ("sin usar|sin estrenar|sem uso|ungetragen|unbenutzt|ongebruikt|inutilizzat[oa]", "unused"),
    ("neu(?:f|ve)s?|nuev[oa]s?|novos?|novas|neuwertig|nieuw|nuov[oa]", "new"),
    ("scell[ée]e?s?|sellad[oa]s?|precintad[oa]s?|lacrad[oa]s?|versiegelt|originalverpackt|sigillat[oa]",
     "sealed"),
    ("en (?:parfait|excellent) [ée]tat|en perfecto estado|em perfeito estado|in perfektem zustand",
     "in perfect condition"),
    # --- used, worn, played with ------------------------------------------------------------------------
    ("port[ée]e?s?|gedragen|indossat[oa]", "worn"),
    ("usad[oa]s?|usée?s?|utilisée?s?|gebraucht|gebruikt|usat[oa]", "used"),
    ("jugu[ée]|he jugado|jogu[ei]i?", "played"),
    ("fois|veces|vezes|keer|volte", "times"),
    # --- defects ----------------------------------------------------------------------------------------
    ("rayures?|ray[ée]e?s?|ara[ñn]azos?|rayones?|rayad[oa]s?|riscos?|arranh[õo]es|arranhad[oa]s?|kratzer|"
     "zerkratzt|krassen|graffi", "scratches"),
    ("taches?|manchas?|flecken|vlekken|macchie", "stains"),
    ("d[ée]color(?:ation|[ée]e?s?)|decoloraci[óo]n|descolora[çc][ãa]o|descolorid[oa]s?|verblasst|verbleekt|"
     "scolorit[oa]", "faded"),
    ("effac[ée]e?s?|borrad[oa]s?|apagad[oa]s?|unleserlich|onleesbaar", "rubbed off"),
    ("num[ée]ros? de s[ée]rie|n[úu]meros? de s[ée]rie|seriennummer|serienummer", "serial number"),
    ("num[ée]ro|n[úu]mero", "number"),
    ("cass[ée]e?s?|rotos?|rotas|quebrad[oa]s?|kaputt|kapot|rott[oa]", "broken"),
    ("fissur[ée]e?s?|f[êe]l[ée]e?s?|fendu(?:e|s|es)?|agrietad[oa]s?|rachad[oa]s?|trincad[oa]s?|"
     "gerissen|gebarsten|incrinat[oa]", "cracked"),
    ("fissures?|fentes?|grietas?|rachaduras?|trincas?|risse?|scheuren", "cracks"),
    ("rouill[ée]e?s?|oxidad[oa]s?|enferrujad[oa]s?|rostig|verroest|arrugginit[oa]", "rusty"),
    ("rouille|[óo]xido|ferrugem|roest|ruggine", "rust"),
    ("fuites?|fugas?|vazamentos?|undicht|lekt|lekkage|perdita", "leaks"),
    ("bomb[ée]e?|gonfl[ée]e?s?|hinchad[oa]s?|inchad[oa]s?|estufad[oa]s?|aufgebl[äa]ht|opgezwollen|"
     "gonfi[oa]", "bulging"),
    ("surchauffe|chauffe|se calienta(?: mucho)?|calienta mucho|esquenta(?: muito)?|[üu]berhitzt|"
     "wird (?:sehr )?hei[ßs]|wordt heet|si surriscalda", "overheats"),
    ("manquante?s?|manque|faltan?|faltantes?|faltam|fehlt|fehlen|ontbreekt|ontbreken|mancan[oa]|mancante",
     "missing"),
    ("ab[îi]m[ée]e?s?|endommag[ée]e?s?|da[ñn]ad[oa]s?|danificad[oa]s?|besch[äa]digt|beschadigd|"
     "danneggiat[oa]", "damaged"),
    ("tordue?s?|pliée?s?|torcid[oa]s?|doblad[oa]s?|empenad[oa]s?|verbogen|krom|storto",
     "bent"),
    ("d[ée]chir[ée]e?s?|rasgad[oa]s?|zerrissen|gescheurd|strappat[oa]", "torn"),
    ("grippée?s?|pegad[oa]s?|agarrotad[oa]s?|travad[oa]s?|festgefressen|vastgeroest|bloccat[oa]",
     "seized"),
    ("tomb[ée]e?s?|se cay[óo]|ca[íi]d[oa]s?|caiu|runtergefallen|heruntergefallen|gevallen|cadut[oa]",
     "dropped"),
    ("accident[ée]e?s?|accidentad[oa]s?|acidentad[oa]s?|unfall|ongeluk|incidentat[oa]", "crashed"),
    ("r[ée]par[ée]e?s?|reparad[oa]s?|consertad[oa]s?|repariert|gerepareerd|riparat[oa]", "repaired"),
    ("soldadura en fr[íi]o|soudure (?:à|a) froid|solda fria|kaltschwei(?:ß|ss)e|koudlas", "epoxy"),
    ("cinta aislante|ruban adh[ée]sif|fita isolante|isolierband|isolatietape|nastro isolante",
     "insulation tape"),
    ("p[ée]rim[ée]e?s?|caducad[oa]s?|vencid[oa]s?|abgelaufen|verlopen|scadut[oa]", "expired"),
    # --- negations and absence ------------------------------------------------------------------------
    ("sans [ée]tiquettes?|sin etiquetas?|sem r[óo]tulos?|sem etiquetas?|ohne etikett|zonder etiket|"
     "senza etichett[ae]", "unlabelled"),
    ("sans|sin|sem|ohne|zonder|senza", "without"),
    ("je n'ai plus|ya no tengo|j[áa] n[ãa]o tenho|habe (?:ich )?nicht mehr|heb (?:ik )?niet meer|"
     "non ho pi[ùu]",
     "no longer have"),
    ("pas de|no tiene|n[ãa]o tem|hat keine?n?|heeft geen|non ha", "has no"),
    ("jamais|nunca|nooit", "never"),
    ("keine?n?|geen", "no"),
    # --- safety-critical products ---------------------------------------------------------------------
    ("si[èe]ge auto|sillas? de (?:coche|auto)|sillita de coche|cadeirinhas? (?:de carro|auto)|kindersitz|"
     "autositz|babyschale|autostoel|seggiolino auto", "car seat"),
    ("poussettes?|cochecitos?|carritos? de beb[ée]|carriolas?|carrinhos? de beb[êée]|kinderwagen|"
     "passeggin[oi]", "pushchair"),
    ("lits? b[ée]b[ée]|lits? parapluie|cunas?|ber[çc]os?|babybett|kinderbedje|culla", "cot"),
    ("chaises? hautes?|tronas?|cadeiras? de alimenta[çc][ãa]o|hochstuhl|kinderstoel|seggiolone",
     "high chair"),
    ("casques?|cascos?|capacetes?|fahrradhelm|motorradhelm|casco", "helmet"),
    ("trottinettes?|patinetes?|monopattin[oi]|tretroller", "scooter"),
    ("v[ée]los?|bicicletas?|fahrr[äa]der|fahrrad|fietsen|fiets|bici|biciclett[ae]", "bike"),
    ("[ée]lectriques?|el[ée]ctric[oa]s?|el[ée]tric[oa]s?|elektrisch|elettric[oa]", "electric"),
    ("batteries|bater[íi]as|akkus", "batteries"),
    ("batterie|bater[íi]a|akku|accu|batteria", "battery"),
    ("chargeurs?|cargador(?:es)?|carregador(?:es)?|ladeger[äa]t|oplader|caricabatterie", "charger"),
    ("r[ée]chauds?|hornillos?|fogareiros?|gaskocher|campingkocher|fornellin[oi]", "camping stove"),
    ("paelleros?", "paella burner"),
    ("bouteilles? de gaz|bombonas?|botij[ãa]o|gasflasche|gasfles|bombola", "gas bottle"),
    ("gaz|g[áa]s", "gas"),
    ("butano", "butane"),
    ("propano", "propane"),
    ("mangueras?|tuyaux?|mangueiras?|schlauch", "hose"),
    ("d[ée]tendeurs?|reguladores?|druckminderer|drukregelaar|riduttore", "regulator"),
    ("cocotte-minute|autocuiseur|ollas? (?:a |de )?presi[óo]n|olla expr[ée]s|panelas? de press[ãa]o|"
     "schnellkochtopf|snelkookpan|pentola a pressione", "pressure cooker"),
    ("cafeteras? italianas?|cafeti[èe]res? italiennes?|cafeteiras? italianas?|espressokocher|"
     "caffettiera|moka", "moka pot"),
    ("plaques? (?:[àa] )?induction|placas? de inducci[óo]n|placas? de indu[çc][ãa]o|induktionskochfeld|"
     "inductiekookplaat", "induction hob"),
    ("chauffages?|radiateurs?|calefactor(?:es)?|estufas?|aquecedor(?:es)?|heizl[üu]fter|heizger[äa]t|"
     "kachel|stufa", "heater"),
    ("[ée]triers? de frein|pinzas? de freno|pin[çc]as? de freio|bremssattel|remklauw|pinza freno",
     "brake caliper"),
    ("plaquettes? de frein|pastillas? de freno|pastilhas? de freio|bremsbel[äa]ge|remblokken",
     "brake pads"),
    ("freins?|frenos?|freios?|bremsen?|remmen|freni", "brakes"),
    ("pneus?|neum[áa]ticos?|reifen|banden|pneumatic[oi]", "tyres"),
    ("fixations? de ski|fijaciones|skibindungen|skibindung|attacchi", "ski bindings"),
    ("[ée]chelles?|escaleras? de mano|escadas? de m[ãa]o|leiter|trapladder", "ladder"),
    ("harnais|arn[ée]s|arn[êe]s|klettergurt|klimgordel|imbragatura", "harness"),
    ("gilets? de sauvetage|chalecos? salvavidas|coletes? salva-vidas|schwimmweste|reddingsvest|"
     "giubbotto salvagente", "life jacket"),
    ("d[ée]tecteurs? de fum[ée]e|detectores? de humo|detectores? de fuma[çc]a|rauchmelder|rookmelder",
     "smoke alarm"),
    ("extincteurs?|extintor(?:es)?|feuerl[öo]scher|brandblusser|estintore", "fire extinguisher"),
    ("tron[çc]onneuses?|motosierras?|motosserras?|kettens[äa]ge|kettingzaag|motosega", "chainsaw"),
    ("meuleuses?|amoladoras?|rebarbadoras?|winkelschleifer|haakse slijper|smerigliatrice",
     "angle grinder"),
    ("fauteuils? roulants?|sillas? de ruedas|cadeiras? de rodas|rollstuhl|rolstoel|sedia a rotelle",
     "wheelchair"),
    ("biberons?|biber[óo]n|mamadeiras?|babyflasche|zuigfles", "baby bottle"),
    ("b[ée]b[ée]s?|beb[ée]s?|beb[êe]s?|s[äa]ugling", "baby"),
    # --- authenticity and precious materials --------------------------------------------------------
    ("authentiques?|aut[ée]ntic[oa]s?|aut[êe]ntic[oa]s?|autentic[oa]|véritables?|verdader[oa]s?|"
     "verdadeir[oa]s?|echt", "authentic"),
    ("certificats?|certificados?|zertifikat|certificaat|certificato", "certificate"),
    ("factures?|facturas?|faturas?|nota fiscal|rechnung|quittung|ticket de caisse|factuur|fattura|"
     "scontrino", "receipt"),
    ("papiers|papeles|pap[ée]is|papiere|papieren", "papers"),
    ("autographi[ée]e?s?|d[ée]dicac[ée]e?s?|sign[ée]e?s?|autografiad[oa]s?|firmad[oa]s?|autografad[oa]s?|"
     "assinad[oa]s?|signiert|handsigniert|gesigneerd|autografat[oa]", "signed"),
    ("argent massif|plata maciza|prata maci[çc]a|massivsilber|massief zilver|argento massiccio",
     "solid silver"),
    ("or massif|oro macizo|ouro maci[çc]o|massivgold|massief goud|oro massiccio", "solid gold"),
    ("plata de ley|prata de lei|sterlingsilber", "sterling silver"),
    ("plata|argent|prata|silber|zilver|argento", "silver"),
    ("oro|ouro|goud", "gold"),
    ("poin[çc]onn[ée]e?s?|gepunzt", "hallmarked"),
    ("poin[çc]ons?|sellos?|punz[óo]n|punze|punzone", "hallmark"),
    ("montres?|relojes?|rel[óo]gios?|armbanduhr|orologi[oa]", "watch"),
    ("bagues?|anillos?|an[ée]is|anel", "ring"),
    ("pulseras?|pulseiras?", "bracelet"),
    ("colliers?|colares?|halskette", "necklace"),
    ("antiguos?|antigas?|antigos?|antik|antiek", "antique"),
    # --- medical claims ---------------------------------------------------------------------------------
    ("soulagent|soulage|alivian?|aliviam?|lindert|allevia", "relieves"),
    ("gu[ée]rit|gu[ée]rir|curam(?:os)?|cura|curar|heilt|geneest|guarisce", "cures"),
    ("antibiotiques|antibi[óo]ticos|antibiotika|antibiotica|antibiotici", "antibiotics"),
    ("c[áâa]ncer|krebs|kanker|cancro", "cancer"),
    ("douleurs?|dolor(?:es)?|dores|schmerzen|pijn", "pain"),
    ("ordonnance|receta m[ée]dica|receita m[ée]dica|rezeptpflichtig|receptplichtig|ricetta medica",
     "prescription"),
    # --- regulated goods --------------------------------------------------------------------------------
    ("mort-aux-rats|raticides?|raticidas?|chumbinho|rattengift|rattengif|veleno per topi", "rat poison"),
    ("poisons?|venenos?|veleno", "poison"),
    ("d[ée]brid[ée]e?s?|d[ée]bridage|desbloquead[oa]s?|deslimitad[oa]s?|desbloqueio|entdrosselt|sbloccat[oa]",
     "derestricted"),
    ("limiteurs?|limitador(?:es)?|drossel|begrenzer|limitatore", "limiter"),
    ("étiquettes?|etiquetas?|r[óo]tulos?|etiketten|etikett|etiket", "labels"),
    ("chlore|cloro|chlor|chloor", "chlorine"),
    ("pego no mato|pego na natureza|captur[ée]e? dans la nature|capturad[oa] en el (?:monte|campo)|"
     "in der natur gefangen", "caught in the wild"),
    ("anilhas?|anillas?|bagues? d'identification|fu[ßs]ringe?", "ring"),
    # --- too incomplete to assess -----------------------------------------------------------------------
    ("voir (?:les )?photos?|ver (?:las |as |os )?fotos?|siehe (?:bilder|fotos?)|zie foto'?s|vedi foto",
     "see photos"),
    ("lotes?|partij", "lot"),
    ("m[áa]quinas?|maschinen?|macchina", "machine"),
    ("pièces d[ée]tach[ée]es|pièces|piezas|pe[çc]as|teile|onderdelen|pezzi|ricambi|repuestos|"
     "recambios", "parts"),
    ("moteurs?|motore", "engine"),
    ("ofertas?|offres|angebote", "offers"),
    ("varios|v[áa]rios|diversos|sonstiges|diversen", "various"),
    ("cosas|choses|coisas|sachen|spullen|cose", "stuff"),
    # --- numbers and sizes ------------------------------------------------------------------------------
    ("pulgadas|pouces|polegadas|zoll|inch", "inch"),
    ("litros?|liter", "litres"),
    ("tazas|tasses|x[íi]caras", "cups"),
    ("tallas?|tailles?|tamanhos?|gr[öo](?:ß|ss)e|maat|taglia", "size"),
    ("una persona|une personne|uma pessoa|eine person|[ée][ée]n persoon|una persona sola", "1 person"),
    ("personas|personnes|pessoas|personen|persone", "people"),
    ("complet[oa]s?|compl[èe]te?s?|vollst[äa]ndig|compleet", "complete"),
)
