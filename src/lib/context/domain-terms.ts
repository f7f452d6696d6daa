// Names written in lower case that the name finder, which reads capitals, cannot see: medicines
// and conditions, known by the endings medicine gives their names, and the most used software
// libraries. Pure.

/**
 * Endings of medicines' generic names (the WHO's stems: penicillins, statins, beta blockers, ACE
 * inhibitors, sartans, proton-pump inhibitors, antivirals, antibodies…), of sugar alcohols
 * (xylitol) and of thyroid hormones.
 */
const MEDICINE_ENDINGS =
	'cillin|mycin|cycline|floxacin|azole|statin|formin|gliptin|gliflozin|sartan|olol|pril|dipine|profen|fenac|oxetine|pramine|azepam|zolam|triptan|tidine|parin|xaban|gatran|mab|vir|sone|olone|caine|itol|thyroxine|semide|thiazide|afil|lukast|setron';
/** Endings of conditions: inflammations, disorders, blood conditions, diseases of an organ, pains, tumours, disorders of the heart's rhythm. */
const CONDITION_ENDINGS = 'itis|osis|a?emia|opathy|algia|oidism|plasia|oma|cardia|rhythmia';
/** Common medicines and conditions whose names end in none of these. */
const COMMON_TERMS = 'aspirin|paracetamol|acetaminophen|naproxen|insulin|warfarin|morphine|codeine|melatonin|diabetes|asthma|hypertension|migraine|eczema|epilepsy|dementia|gout|fibrillation|pneumonia|insomnia|angina';
/** Words with those endings that name no medicine or condition. */
const NOT_TERMS = new Set(['diagnosis', 'prognosis', 'hypnosis', 'osmosis', 'symbiosis', 'metamorphosis', 'apotheosis', 'nostalgia', 'academia', 'bohemia', 'diploma', 'aroma', 'stoma', 'oklahoma', 'sonoma', 'tacoma', 'paloma', 'capitol']);

/**
 * The end of a medicine's or condition's name, or a common one whole: where a term is, found
 * without the Unicode flag (several times faster); `medicalTerm` reads the whole term around it.
 */
export const MEDICAL_ENDING = new RegExp(`[a-z](?:${MEDICINE_ENDINGS}|${CONDITION_ENDINGS})\\b|\\b(?:${COMMON_TERMS})\\b`, 'g');
/** A term's own word: a letter, then small letters. */
const TERM_WORD = /^\p{L}\p{Ll}+$/u;
/**
 * What may come before a term as part of it: its type ("type 2 diabetes"), the part of the body
 * or the course it is of ("atrial fibrillation", "chronic bronchitis"), or a capitalised word, not
 * a sentence's first ("Achilles tendinopathy").
 */
const QUALIFIER_BEFORE =
	/(?:\b[Tt]ype\s+\d|\b(?:atrial|ventricular|cardiac|coronary|pulmonary|renal|hepatic|gastric|peptic|intestinal|rheumatoid|allergic|bacterial|viral|fungal|diabetic|chronic|acute|congestive|essential|postural|sinus))\s+$/;
const NAME_BEFORE = /(?<=\p{Ll},?\s)\p{Lu}\p{Ll}+(?:['’]s)?\s+$/u;
const isLetter = (code: number) => (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 0xc0 && code !== 0xd7 && code !== 0xf7);

/**
 * The span of the medicine or condition whose ending (a match of MEDICAL_ENDING) is at `at`:
 * the whole word, with its type, its qualifier or the capitalised word of its name before it;
 * or null when the word only ends as one does ("diagnosis").
 */
export function medicalTerm(text: string, at: number, ending: string): [number, number] | null {
	const end = at + ending.length;
	let start = at;
	while (start > 0 && isLetter(text.charCodeAt(start - 1))) start--;
	const word = text.slice(start, end);
	if (!TERM_WORD.test(word) || NOT_TERMS.has(word.toLowerCase())) return null;
	const before = text.slice(Math.max(0, start - 40), start);
	const extra = QUALIFIER_BEFORE.exec(before) ?? NAME_BEFORE.exec(before);
	return [extra ? start - (before.length - extra.index) : start, end];
}

/** Libraries among the most used, whose names are no English word: numpy, pandas, scikit-learn. */
export const LIBRARY =
	/\b(?:numpy|pandas|polars|pyarrow|duckdb|scipy|matplotlib|seaborn|plotly|scikit-learn|sklearn|statsmodels|pytorch|tensorflow|keras|xgboost|lightgbm|catboost|optuna|pyspark|django|fastapi|sqlalchemy|pydantic|pytest|lodash|axios|webpack|jquery|postgis)\b/g;

