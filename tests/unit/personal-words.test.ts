/**
 * Personal-data fields by their names (client/safety/personal-words.ts), in every language the
 * risk words cover, read as a person reads them: a Spanish sign-up's `correo` and `teléfono`
 * are personal as its English twin's `email` and `phone` are.
 */
import { describe, expect, it } from 'vitest';
import { personalKind } from '../../client/safety/personal-words';

describe('personalKind', () => {
  it.each([
    // en, as before
    ['email', 'email'],
    ['user_email', 'email'],
    ['E-Mail', 'email'],
    ['phone', 'phone'],
    ['user_tel', 'phone'],
    ['mobileNumber', 'phone'],
    ['cc-num', 'card'],
    ['cardholder', 'card'],
    ['password', 'password'],
    ['user_pass', 'password'],
    ['street', 'address'],
    ['postcode', 'address'],
    ['dob', 'birthday'],
    ['birth_date', 'birthday'],
    ['ssn', 'id number'],
    ['national-id', 'id number'],
    ['first_name', 'name'],
    ['lastName', 'name'],
    // es
    ['correo', 'email'],
    ['correo_electronico', 'email'],
    ['teléfono', 'phone'],
    ['telefono', 'phone'],
    ['clave', 'password'],
    ['contraseña', 'password'],
    ['contrasena', 'password'],
    ['direccion', 'address'],
    ['fecha_nacimiento', 'birthday'],
    ['apellidos', 'name'],
    ['numero_tarjeta', 'card'],
    ['dni', 'id number'],
    // de
    ['Passwort', 'password'],
    ['kennwort', 'password'],
    ['Strasse', 'address'],
    ['straße', 'address'],
    ['plz', 'address'],
    ['Geburtsdatum', 'birthday'],
    ['vorname', 'name'],
    ['Kreditkarte', 'card'],
    // fr
    ['mot_de_passe', 'password'],
    ['motDePasse', 'password'],
    ['courriel', 'email'],
    ['prenom', 'name'],
    ['date_naissance', 'birthday'],
    ['numero_carte', 'card'],
    // pt, it, nl
    ['senha', 'password'],
    ['endereco', 'address'],
    ['sobrenome', 'name'],
    ['cognome', 'name'],
    ['indirizzo', 'address'],
    ['wachtwoord', 'password'],
    ['achternaam', 'name'],
    ['telefoon', 'phone'],
    // ru, pl, tr
    ['пароль', 'password'],
    ['телефон', 'phone'],
    ['фамилия', 'name'],
    ['адрес', 'address'],
    ['haslo', 'password'],
    ['hasło', 'password'],
    ['nazwisko', 'name'],
    ['sifre', 'password'],
    ['şifre', 'password'],
    ['eposta', 'email'],
    ['ad_soyad', 'name'],
    // ja, zh, ko
    ['パスワード', 'password'],
    ['電話番号', 'phone'],
    ['密码', 'password'],
    ['手机号', 'phone'],
    ['비밀번호', 'password'],
    ['이메일', 'email'],
    // look-alikes
    ['p\u0430ssword', 'password'],
    ['\uff45\uff4d\uff41\uff49\uff4c', 'email'],
  ])('%j is %s', (name, kind) => {
    expect(personalKind(name)).toBe(kind);
  });

  it.each(['q', 'search', 'quantity', 'cantidad', 'hotel', 'username', 'comment', 'message', 'name', 'nombre', 'bypass', 'passport_photo_ok'])(
    '%j: not personal (or not this way)',
    (name) => {
      expect(personalKind(name) ?? 'none').toBe(name === 'passport_photo_ok' ? 'id number' : 'none');
    },
  );
});
