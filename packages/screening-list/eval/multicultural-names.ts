/**
 * Name parts of several cultures and scripts, for the evaluation sets (`generate-evaluation-sets.ts`)
 * and the bench's generated lists (`bench/screening-list-scale.ts`). A part is `[latin, native]`
 * when the culture writes another script; synthetic surnames are built from each culture's
 * syllables so that a list of a million names holds many distinct words, as a real one does.
 */
export type Part = readonly [latin: string, native?: string];

export type Culture = {
  readonly name: string;
  readonly given: readonly Part[];
  readonly family: readonly Part[];
  /** Syllables of synthetic family names (Latin), e.g. `ko`, `lov`. */
  readonly syllables: readonly string[];
  /** Whether the family name is written first (Chinese, Korean). */
  readonly familyFirst?: boolean;
  /** Middle names or patronymics, when the culture has them. */
  readonly middle?: readonly Part[];
};

export const cultures: readonly Culture[] = [
  {
    name: 'russian',
    given: [
      ['Dmitriy', 'Дмитрий'],
      ['Sergey', 'Сергей'],
      ['Aleksandr', 'Александр'],
      ['Vladimir', 'Владимир'],
      ['Nikolay', 'Николай'],
      ['Ivan', 'Иван'],
      ['Mikhail', 'Михаил'],
      ['Andrey', 'Андрей'],
      ['Oleg', 'Олег'],
      ['Yuriy', 'Юрий'],
      ['Igor', 'Игорь'],
      ['Pavel', 'Павел'],
      ['Viktor', 'Виктор'],
      ['Boris', 'Борис'],
      ['Anna', 'Анна'],
      ['Olga', 'Ольга'],
      ['Tatyana', 'Татьяна'],
      ['Yelena', 'Елена'],
      ['Irina', 'Ирина'],
      ['Gennadiy', 'Геннадий'],
      ['Arkadiy', 'Аркадий'],
      ['Svetlana', 'Светлана'],
      ['Lyudmila', 'Людмила'],
    ],
    family: [
      ['Sokolov', 'Соколов'],
      ['Petrov', 'Петров'],
      ['Smirnov', 'Смирнов'],
      ['Kuznetsov', 'Кузнецов'],
      ['Popov', 'Попов'],
      ['Vasilyev', 'Васильев'],
      ['Novikov', 'Новиков'],
      ['Morozov', 'Морозов'],
      ['Volkov', 'Волков'],
      ['Lebedev', 'Лебедев'],
      ['Kozlov', 'Козлов'],
      ['Orlov', 'Орлов'],
      ['Zakharov', 'Захаров'],
      ['Belov', 'Белов'],
      ['Tikhonov', 'Тихонов'],
      ['Gromov', 'Громов'],
      ['Yermakov', 'Ермаков'],
      ['Sobolev', 'Соболев'],
      ['Karpov', 'Карпов'],
      ['Frolov', 'Фролов'],
      ['Rotenberg', 'Ротенберг'],
      ['Deripaska', 'Дерипаска'],
      ['Timchenko', 'Тимченко'],
      ['Sechin', 'Сечин'],
    ],
    middle: [
      ['Ivanovich', 'Иванович'],
      ['Sergeyevich', 'Сергеевич'],
      ['Petrovich', 'Петрович'],
      ['Aleksandrovich', 'Александрович'],
      ['Nikolayevich', 'Николаевич'],
      ['Borisovich', 'Борисович'],
    ],
    syllables: [
      'ko',
      'lov',
      'ro',
      'man',
      'zhe',
      'ny',
      'sha',
      'ti',
      'gor',
      'ev',
      'din',
      'cher',
      'ba',
      'mir',
      'shin',
    ],
  },
  {
    name: 'greek',
    given: [
      ['Ioannis', 'Ιωάννης'],
      ['Georgios', 'Γεώργιος'],
      ['Konstantinos', 'Κωνσταντίνος'],
      ['Dimitrios', 'Δημήτριος'],
      ['Nikolaos', 'Νικόλαος'],
      ['Maria', 'Μαρία'],
      ['Eleni', 'Ελένη'],
      ['Panagiotis', 'Παναγιώτης'],
      ['Christos', 'Χρήστος'],
      ['Vasilios', 'Βασίλειος'],
      ['Sofia', 'Σοφία'],
      ['Athanasios', 'Αθανάσιος'],
    ],
    family: [
      ['Papadopoulos', 'Παπαδόπουλος'],
      ['Papadakis', 'Παπαδάκης'],
      ['Georgiou', 'Γεωργίου'],
      ['Nikolaidis', 'Νικολαΐδης'],
      ['Karagiannis', 'Καραγιάννης'],
      ['Vlachos', 'Βλάχος'],
      ['Oikonomou', 'Οικονόμου'],
      ['Makris', 'Μακρής'],
      ['Antoniou', 'Αντωνίου'],
      ['Dimitriou', 'Δημητρίου'],
      ['Konstantinidis', 'Κωνσταντινίδης'],
      ['Angelopoulos', 'Αγγελόπουλος'],
    ],
    syllables: ['pa', 'pou', 'los', 'ki', 'dis', 'ge', 'or', 'na', 'tho', 'ou', 'ma', 'kri', 'sta'],
  },
  {
    name: 'arabic',
    given: [
      ['Muhammad', 'محمد'],
      ['Ahmad', 'أحمد'],
      ['Ali', 'علي'],
      ['Hassan', 'حسن'],
      ['Hussein', 'حسين'],
      ['Khalid', 'خالد'],
      ['Omar', 'عمر'],
      ['Yusuf', 'يوسف'],
      ['Ibrahim', 'إبراهيم'],
      ['Mahmoud', 'محمود'],
      ['Mustafa', 'مصطفى'],
      ['Salman', 'سلمان'],
      ['Faisal', 'فيصل'],
      ['Nasser', 'ناصر'],
      ['Karim', 'كريم'],
      ['Tariq', 'طارق'],
      ['Saeed', 'سعيد'],
      ['Fatima', 'فاطمة'],
      ['Aisha', 'عائشة'],
      ['Bilal', 'بلال'],
      ['Hamza', 'حمزة'],
      ['Walid', 'وليد'],
      ['Samir', 'سمير'],
      ['Adel', 'عادل'],
    ],
    family: [
      ['al-Masri', 'المصري'],
      ['Haddad', 'حداد'],
      ['Khoury', 'خوري'],
      ['Hamdan', 'حمدان'],
      ['Mansour', 'منصور'],
      ['Saleh', 'صالح'],
      ['Aziz', 'عزيز'],
      ['Qasim', 'قاسم'],
      ['Jaber', 'جابر'],
      ['al-Tikriti', 'التكريتي'],
      ['Barakat', 'بركات'],
      ['Darwish', 'درويش'],
      ['Ghanem', 'غانم'],
      ['Hijazi', 'حجازي'],
      ['Shammari', 'شمري'],
      ['Zubaidi', 'زبيدي'],
      ['Othman', 'عثمان'],
      ['Suleiman', 'سليمان'],
    ],
    syllables: ['al', 'ha', 'sha', 'mi', 'ri', 'din', 'za', 'ki', 'ba', 'ra', 'ji', 'tu', 'yah'],
  },
  {
    name: 'hebrew',
    given: [
      ['Avraham', 'אברהם'],
      ['Yitzhak', 'יצחק'],
      ['Moshe', 'משה'],
      ['David', 'דוד'],
      ['Yosef', 'יוסף'],
      ['Shlomo', 'שלמה'],
      ['Menachem', 'מנחם'],
      ['Eliyahu', 'אליהו'],
    ],
    family: [
      ['Cohen', 'כהן'],
      ['Levi', 'לוי'],
      ['Mizrahi', 'מזרחי'],
      ['Peretz', 'פרץ'],
      ['Friedman', 'פרידמן'],
      ['Katz', 'כץ'],
      ['Shapira', 'שפירא'],
      ['Goldberg', 'גולדברג'],
      ['Rosenberg', 'רוזנברג'],
      ['Ben David', 'בן דוד'],
    ],
    syllables: ['ben', 'shal', 'om', 'gol', 'berg', 'man', 'stein', 'ro', 'ze', 'el'],
  },
  {
    name: 'korean',
    familyFirst: true,
    given: [
      ['Jong Un', '정은'],
      ['Chol Su', '철수'],
      ['Min Ho', '민호'],
      ['Song Il', '성일'],
      ['Ji Hun', '지훈'],
      ['Myong Chol', '명철'],
      ['Yong Ho', '영호'],
      ['Kwang Il', '광일'],
      ['Chang Ho', '창호'],
      ['Tae Hyon', '태현'],
    ],
    family: [
      ['Kim', '김'],
      ['Pak', '박'],
      ['Choe', '최'],
      ['Ri', '리'],
      ['Han', '한'],
      ['Kang', '강'],
      ['Ryu', '류'],
      ['Jang', '장'],
    ],
    syllables: ['kim', 'son', 'gwang', 'chol', 'myong', 'hyon', 'jin', 'sok', 'pyong'],
  },
  {
    name: 'chinese',
    familyFirst: true,
    given: [
      ['Jinping', '近平'],
      ['Wei', '伟'],
      ['Fang', '芳'],
      ['Yang', '洋'],
      ['Jing', '静'],
      ['Qiang', '强'],
      ['Lei', '磊'],
      ['Jun', '军'],
      ['Ming', '明'],
      ['Hua', '华'],
      ['Xiaoming', '小明'],
      ['Jianguo', '建国'],
    ],
    family: [
      ['Xi', '习'],
      ['Li', '李'],
      ['Wang', '王'],
      ['Zhang', '张'],
      ['Liu', '刘'],
      ['Chen', '陈'],
      ['Yang', '杨'],
      ['Zhao', '赵'],
      ['Huang', '黄'],
      ['Zhou', '周'],
      ['Wu', '吴'],
      ['Xu', '徐'],
    ],
    syllables: ['zhang', 'xiao', 'hong', 'ping', 'guo', 'jian', 'qing', 'shu', 'dong', 'yun'],
  },
  {
    name: 'spanish',
    given: [
      ['José'],
      ['Luis'],
      ['Carlos'],
      ['Juan'],
      ['Miguel'],
      ['Javier'],
      ['María'],
      ['Carmen'],
      ['Lucía'],
      ['Alejandro'],
      ['Fernando'],
      ['Rafael'],
      ['Diego'],
      ['Ana'],
      ['Isabel'],
      ['Jorge'],
      ['Ricardo'],
    ],
    family: [
      ['Martínez'],
      ['García'],
      ['Rodríguez'],
      ['López'],
      ['Hernández'],
      ['González'],
      ['Pérez'],
      ['Sánchez'],
      ['Ramírez'],
      ['Torres'],
      ['Flores'],
      ['Vargas'],
      ['Castillo'],
      ['Guzmán'],
      ['Ortega'],
      ['Mendoza'],
    ],
    syllables: ['gar', 'ci', 'mar', 'tin', 'ez', 'ro', 'dri', 'guez', 'la', 'no', 'var', 'gas', 'mon'],
  },
  {
    name: 'english',
    given: [
      ['John'],
      ['Michael'],
      ['David'],
      ['James'],
      ['Robert'],
      ['William'],
      ['Mary'],
      ['Jennifer'],
      ['Sarah'],
      ['Thomas'],
      ['Richard'],
      ['Elizabeth'],
      ['Patrick'],
      ['Emily'],
      ['George'],
      ['Charles'],
    ],
    family: [
      ['Smith'],
      ['Johnson'],
      ['Williams'],
      ['Brown'],
      ['Jones'],
      ['Miller'],
      ['Davis'],
      ['Wilson'],
      ['Anderson'],
      ['Taylor'],
      ['Thompson'],
      ['Harris'],
      ['Clarke'],
      ['Walker'],
      ['Wright'],
      ["O'Brien"],
    ],
    syllables: ['ash', 'ford', 'ton', 'wood', 'ley', 'field', 'bur', 'ridge', 'well', 'ham', 'by'],
  },
  {
    name: 'german',
    given: [
      ['Hans'],
      ['Jürgen'],
      ['Klaus'],
      ['Wolfgang'],
      ['Stefan'],
      ['Uwe'],
      ['Sabine'],
      ['Ursula'],
      ['Dieter'],
    ],
    family: [
      ['Müller'],
      ['Schmidt'],
      ['Schneider'],
      ['Fischer'],
      ['Weber'],
      ['Meyer'],
      ['Wagner'],
      ['Becker'],
      ['Schäfer'],
      ['Hoffmann'],
      ['Koch'],
      ['Richter'],
    ],
    syllables: ['berg', 'mann', 'stein', 'hof', 'bach', 'wald', 'feld', 'kir', 'sch', 'lin'],
  },
  {
    name: 'turkish',
    given: [
      ['Mehmet'],
      ['Mustafa'],
      ['Ahmet'],
      ['Ayşe'],
      ['Fatma'],
      ['Şükrü'],
      ['Emre'],
      ['Hüseyin'],
      ['Zeynep'],
    ],
    family: [
      ['Yılmaz'],
      ['Kaya'],
      ['Demir'],
      ['Şahin'],
      ['Çelik'],
      ['Öztürk'],
      ['Aydın'],
      ['Arslan'],
      ['Doğan'],
    ],
    syllables: ['oz', 'tur', 'kan', 'ay', 'dem', 'ir', 'cel', 'gul', 'ter', 'sen'],
  },
  {
    name: 'vietnamese',
    familyFirst: true,
    given: [['Văn Thắng'], ['Thị Lan'], ['Minh Tuấn'], ['Hữu Phước'], ['Quốc Bảo'], ['Thanh Hương']],
    family: [['Nguyễn'], ['Trần'], ['Lê'], ['Phạm'], ['Hoàng'], ['Vũ'], ['Đặng'], ['Bùi']],
    syllables: ['nguy', 'tran', 'hoa', 'phu', 'thanh', 'quoc', 'duc'],
  },
  {
    name: 'nigerian',
    given: [
      ['Oluwaseun'],
      ['Chinedu'],
      ['Ngozi'],
      ['Emeka'],
      ['Adebayo'],
      ['Folake'],
      ['Ifeanyi'],
      ['Tunde'],
    ],
    family: [['Adeyemi'], ['Okafor'], ['Okonkwo'], ['Balogun'], ['Eze'], ['Obi'], ['Adeleke'], ['Nwosu']],
    syllables: ['ade', 'olu', 'wa', 'chi', 'ke', 'nwa', 'eme', 'bayo', 'yemi'],
  },
  {
    name: 'indian',
    given: [
      ['Rajesh'],
      ['Priya'],
      ['Amit'],
      ['Sunita'],
      ['Vikram'],
      ['Anil'],
      ['Deepak'],
      ['Kavita'],
      ['Sanjay'],
    ],
    family: [
      ['Sharma'],
      ['Kumar'],
      ['Patel'],
      ['Singh'],
      ['Gupta'],
      ['Reddy'],
      ['Iyer'],
      ['Chatterjee'],
      ['Nair'],
    ],
    syllables: ['pra', 'kash', 'shan', 'kar', 'vee', 'ran', 'dev', 'raj', 'swa'],
  },
];

/** A deterministic generator (mulberry32): the same names every run. */
export const seededRandom = (seed: number) => {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
};

export const pick = <T>(random: () => number, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)] as T;

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A synthetic family name of the culture: two or three of its syllables. */
export const syntheticFamily = (random: () => number, culture: Culture): string =>
  capitalized(
    Array.from({ length: 2 + Math.floor(random() * 2) }, () => pick(random, culture.syllables)).join(''),
  );

/** A person of the culture: given, family (a real one half the time), a middle name sometimes. */
export const personName = (
  random: () => number,
  culture: Culture,
  script: 'latin' | 'native' = 'latin',
): string => {
  const written = (part: Part) => (script === 'native' ? (part[1] ?? part[0]) : part[0]);
  const given = written(pick(random, culture.given));
  const family =
    random() < 0.5 || script === 'native'
      ? written(pick(random, culture.family))
      : syntheticFamily(random, culture);
  const middle =
    culture.middle !== undefined && random() < 0.4 ? written(pick(random, culture.middle)) : null;
  if (culture.familyFirst) return `${family} ${given}`;
  return middle === null ? `${given} ${family}` : `${given} ${middle} ${family}`;
};

const companyWords = [
  'Northwind',
  'Maritime',
  'Trading',
  'Holding',
  'Capital',
  'Energy',
  'Logistics',
  'Petroleum',
  'Metals',
  'Industrial',
  'Shipping',
  'Investment',
  'Technologies',
  'Global',
  'Atlas',
  'Orion',
  'Baltic',
  'Caspian',
  'Pacific',
  'Delta',
  'Horizon',
  'Vostok',
  'Sever',
  'Almaz',
  'Zenith',
  'Falcon',
  'Cedar',
  'Granite',
];
const legalForms = [
  'LLC',
  'Ltd',
  'Limited',
  'GmbH',
  'AG',
  'S.A.',
  'SARL',
  'JSC',
  'OOO',
  'PLC',
  'Inc.',
  'B.V.',
  'S.p.A.',
];

/** A company: a coined word of a culture, one or two common words, a legal form. */
export const companyName = (random: () => number): string => {
  const culture = pick(random, cultures);
  const words = [syntheticFamily(random, culture), pick(random, companyWords)];
  if (random() < 0.4) words.push(pick(random, companyWords));
  return `${words.join(' ')} ${pick(random, legalForms)}`;
};
