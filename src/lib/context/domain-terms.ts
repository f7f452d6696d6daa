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
/** Endings of conditions: inflammations, disorders, blood conditions, diseases of an organ, pains, tumours. */
const CONDITION_ENDINGS = 'itis|osis|a?emia|opathy|algia|oidism|plasia|oma';
/** Common medicines and conditions whose names end in none of these. */
const COMMON_TERMS = 'aspirin|paracetamol|acetaminophen|naproxen|insulin|warfarin|morphine|codeine|melatonin|diabetes|asthma|hypertension|migraine|eczema|epilepsy|dementia|gout';
/** Words with those endings that name no medicine or condition. */
const NOT_TERMS = new Set(['diagnosis', 'prognosis', 'hypnosis', 'osmosis', 'symbiosis', 'metamorphosis', 'apotheosis', 'nostalgia', 'academia', 'bohemia', 'diploma', 'aroma', 'stoma', 'oklahoma', 'sonoma', 'tacoma', 'paloma', 'capitol']);

/**
 * A medicine or condition, with the type of a condition ("type 2 diabetes") and a capitalised
 * word before it, not a sentence's first, that belongs to its name ("Achilles tendinopathy").
 */
export const MEDICAL_TERM = new RegExp(
	`(?:(?<=\\p{Ll},?\\s)\\p{Lu}\\p{Ll}+(?:['’]s)?\\s+|\\b[Tt]ype\\s+\\d\\s+)?\\b(?:\\p{L}\\p{Ll}+(?:${MEDICINE_ENDINGS}|${CONDITION_ENDINGS})|(?:${COMMON_TERMS}))\\b`,
	'gu'
);

/** Libraries among the most used, whose names are no English word: numpy, pandas, scikit-learn. */
export const LIBRARY =
	/\b(?:numpy|pandas|scipy|matplotlib|seaborn|scikit-learn|sklearn|statsmodels|pytorch|tensorflow|keras|xgboost|lightgbm|django|fastapi|sqlalchemy|pydantic|pytest|lodash|axios|webpack|jquery|postgis)\b/g;

/** Whether `term` (a match of MEDICAL_TERM) names a medicine or condition, not a word that only ends as one does. */
export function isMedicalTerm(term: string): boolean {
	return !NOT_TERMS.has(term.slice(term.lastIndexOf(' ') + 1).toLowerCase());
}
