import { describeNestSuite } from './nestjs-suite';
import { describeRequestPrincipal } from './request-principal-suite';

// jest.config.ts runs this file in the `nest11` project, which maps every @nestjs/* import to
// test/nestjs/nest11/node_modules (NestJS 11): the suite's, toolwright's and Nest's own.
describeNestSuite('NestJS 11 (CommonJS)', 11);
describeRequestPrincipal('NestJS 11');
