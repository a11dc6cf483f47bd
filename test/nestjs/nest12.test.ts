import { describeNestSuite } from './nestjs-suite';

describeNestSuite('NestJS 12 (ES modules, transformed to CommonJS by swc under Jest)', 12);
