import { describe, expect, it } from 'vitest';
import { extractFacts } from './extract-facts';

const found = (content: string) => extractFacts([{ seq: 1, role: 'user', content }]).map((fact) => `${fact.class}: ${fact.text}`);

describe('extractFacts on names written in lower case', () => {
	it('takes medicines by the endings of their generic names, and the most common ones by name', () => {
		expect(found('I take metformin and atorvastatin, got amoxicillin for it, omeprazole too; paracetamol helps.')).toEqual([
			'name: metformin',
			'name: atorvastatin',
			'name: amoxicillin',
			'name: omeprazole',
			'name: paracetamol'
		]);
	});

	it('takes conditions by their endings, with their type and the capitalised word of their name, not words that only end so', () => {
		expect(found('She has hypothyroidism and osteoarthritis, he has type 2 diabetes and Achilles tendinopathy.')).toEqual([
			'name: hypothyroidism',
			'name: osteoarthritis',
			'name: type 2 diabetes',
			'name: Achilles tendinopathy'
		]);
		expect(found('He has atrial fibrillation, sinus tachycardia and an arrhythmia; chronic bronchitis too.')).toEqual([
			'name: atrial fibrillation',
			'name: sinus tachycardia',
			'name: arrhythmia',
			'name: chronic bronchitis'
		]);
		expect(found('The diagnosis came from academia, with some nostalgia and a diploma.')).toEqual([]);
	});

	it('takes the most used libraries', () => {
		expect(found('I load it with pandas and numpy, then fit it with scikit-learn.')).toEqual(['identifier: pandas', 'identifier: numpy', 'identifier: scikit-learn']);
		expect(found('I load it with polars.')).toEqual(['identifier: polars']);
	});
});
