/**
 * What kind of personal data a form field holds, by the words of its `name` or `id`, in the
 * languages the risk words cover (English, Spanish, German, French, Portuguese, Italian, Dutch,
 * Russian, Polish, Turkish, Japanese, Chinese, Korean). Pure.
 *
 * Names are read as readAsPerson reads text (a Spanish form's `teléfono` and `telefono` are one
 * word, `E-Mail` and `email` too), split into words at punctuation and camelCase. Each kind
 * lists two sorts of words, each written as people write them:
 * - a part, found anywhere in the name with its separators removed (`email` in `userEmail`);
 * - `=word`: a whole word (`tel` in `user_tel`, not in `hotel`).
 * A field called just "name" (`nombre`, `nom`, …) is not taken as personal on its own: it is as
 * often a product's or a list's name.
 */
import { readAsPerson } from './read-as-person';

const KINDS: Array<[string, string[]]> = [
  ['email', ['email', '=mail', 'correo', 'courriel', 'eposta', 'почта', '=poczta', 'メール', '邮箱', '郵箱', '邮件', '郵件', '이메일', '메일']],
  [
    'phone',
    [
      'phone',
      'mobile',
      '=tel',
      '=tlf',
      '=mob',
      '=gsm',
      '=fone',
      '=handy',
      'telefon',
      'telefoon',
      'movil',
      'celular',
      'cellulare',
      'telemovel',
      'mobiel',
      'komork',
      'телефон',
      'мобильн',
      '電話',
      '携帯',
      '电话',
      '手机',
      '手機',
      '전화',
      '휴대폰',
      '핸드폰',
      '연락처',
    ],
  ],
  [
    'card',
    [
      'card',
      'ccnum',
      'cvc',
      'cvv',
      'iban',
      'tarjeta',
      'kart',
      'carte',
      'cartao',
      'cartadicredito',
      'kaartnummer',
      'карт',
      'カード',
      '卡号',
      '卡號',
      '信用卡',
      '银行卡',
      '카드',
    ],
  ],
  [
    'password',
    [
      'password',
      'passwd',
      'pwd',
      '=pass',
      'passwort',
      'kennwort',
      'contraseña',
      '=clave',
      'motdepasse',
      '=mdp',
      'senha',
      'wachtwoord',
      'пароль',
      'hasło',
      'şifre',
      'パスワード',
      '密码',
      '密碼',
      '비밀번호',
      '암호',
    ],
  ],
  [
    'address',
    [
      'street',
      'address',
      'city',
      'zip',
      'postal',
      'postcode',
      'dirección',
      'calle',
      'ciudad',
      'straße',
      'anschrift',
      'adresse',
      'wohnort',
      '=plz',
      '=ort',
      '=rue',
      '=ville',
      'endereço',
      'cidade',
      '=cep',
      'indirizzo',
      'città',
      'straat',
      'woonplaats',
      'adres',
      'адрес',
      'улица',
      'город',
      'ulica',
      'miasto',
      'kodpocztowy',
      'sokak',
      'mahalle',
      'şehir',
      'postakodu',
      '住所',
      '郵便番号',
      '地址',
      '邮编',
      '郵遞區號',
      '주소',
      '우편번호',
    ],
  ],
  [
    'birthday',
    [
      'birth',
      '=dob',
      'nacimiento',
      'geburt',
      'naissance',
      'nascimento',
      'nascita',
      'geboorte',
      'рождени',
      'urodzeni',
      'doğum',
      '生年月日',
      '誕生日',
      '出生',
      '生日',
      '생년월일',
      '생일',
    ],
  ],
  [
    'id number',
    [
      'ssn',
      'passport',
      'nationalid',
      'taxid',
      'pasaporte',
      'passeport',
      'passaporto',
      'paspoort',
      'paszport',
      'паспорт',
      'ausweis',
      'steuernummer',
      'steuerid',
      'codicefiscale',
      'kimlik',
      'pesel',
      '=dni',
      '=nif',
      '=cpf',
      '=curp',
      '=bsn',
      '=инн',
      '=снилс',
      '身份证',
      '身分證',
      'マイナンバー',
      '주민등록',
      '주민번호',
    ],
  ],
  [
    'name',
    [
      'firstname',
      'lastname',
      'fullname',
      'givenname',
      'familyname',
      'surname',
      'apellido',
      'vorname',
      'nachname',
      'familienname',
      'prénom',
      'sobrenome',
      'cognome',
      'voornaam',
      'achternaam',
      'фамилия',
      'отчество',
      '=фио',
      'nazwisko',
      'soyad',
      '氏名',
      '名前',
      '姓名',
      '名字',
      '이름',
      '성명',
    ],
  ],
];

const WORDS = KINDS.map(([kind, list]) => ({
  kind,
  parts: list.filter((w) => w[0] !== '=').map(readAsPerson),
  words: list.filter((w) => w[0] === '=').map((w) => readAsPerson(w.slice(1))),
}));

/** One name's words, as read: `billingPhone_2` → ['biiiing', 'phone', '2']. */
const wordsOf = (name: string): string[] =>
  readAsPerson(name.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2'))
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/**
 * The kind of personal data a field named `name` (its `name` or `id` attribute) holds, if its
 * words say: `email`, `phone`, `card`, `password`, `address`, `birthday`, `id number`, `name`.
 * @example personalKind('telefono_movil') // 'phone'
 */
export function personalKind(name: string): string | undefined {
  const words = wordsOf(name);
  if (!words.length) return undefined;
  const joined = ` ${words.join(' ')} `;
  const compact = words.join('');
  for (const w of WORDS) if (w.parts.some((p) => compact.includes(p)) || w.words.some((x) => joined.includes(` ${x} `))) return w.kind;
  return undefined;
}
