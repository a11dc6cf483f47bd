import { describeNestSuite } from './nestjs-suite';
import { describeRequestPrincipal } from './request-principal-suite';

describeNestSuite('NestJS 12 (ES modules, transformed to CommonJS by swc under Jest)', 12);
describeRequestPrincipal('NestJS 12');
