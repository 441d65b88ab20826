/**
 * Syntax checks for names, label keys and label values (apimachinery `util/validation`). Each returns the list of
 * problems, empty when the value is valid.
 */

const QUALIFIED_NAME_MAX = 63;
const LABEL_VALUE_MAX = 63;
const DNS1123_SUBDOMAIN_MAX = 253;
const DNS1123_LABEL_MAX = 63;

const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME_RE = new RegExp(`^${QUALIFIED_NAME_FMT}$`);
const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE_FMT}$`);
const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL_RE = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);

/** A DNS-1123 subdomain: object names of most kinds, label-key prefixes. */
export function isDns1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_SUBDOMAIN_MAX) errs.push(`must be no more than ${DNS1123_SUBDOMAIN_MAX} characters`);
  if (!DNS1123_SUBDOMAIN_RE.test(value)) {
    errs.push(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start " +
        `and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '${DNS1123_SUBDOMAIN_FMT}')`,
    );
  }
  return errs;
}

/** A DNS-1123 label: namespace names, container names. */
export function isDns1123Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_LABEL_MAX) errs.push(`must be no more than ${DNS1123_LABEL_MAX} characters`);
  if (!DNS1123_LABEL_RE.test(value)) {
    errs.push(
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end " +
        `with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '${DNS1123_LABEL_FMT}')`,
    );
  }
  return errs;
}

/** A qualified name (`[prefix/]name`): label and annotation keys, finalizers. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0] ?? '';
  } else if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    name = parts[1] ?? '';
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else for (const e of isDns1123Subdomain(prefix)) errs.push(`prefix part ${e}`);
  } else {
    return [
      "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an " +
        `alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '${QUALIFIED_NAME_FMT}') ` +
        "with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > QUALIFIED_NAME_MAX) errs.push(`name part must be no more than ${QUALIFIED_NAME_MAX} characters`);
  if (!QUALIFIED_NAME_RE.test(name)) {
    errs.push(
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric " +
        `character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '${QUALIFIED_NAME_FMT}')`,
    );
  }
  return errs;
}

/** A label value: empty, or up to 63 characters of `[-A-Za-z0-9_.]` starting and ending alphanumeric. */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (value.length > LABEL_VALUE_MAX) errs.push(`must be no more than ${LABEL_VALUE_MAX} characters`);
  if (!LABEL_VALUE_RE.test(value)) {
    errs.push(
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start " +
        `and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '${LABEL_VALUE_FMT}')`,
    );
  }
  return errs;
}
