import { Injectable } from '@nestjs/common';
import { World } from '../../common/auth/world';
import { ApiError } from '../../common/errors/api-error';
import { validateBody } from '../../common/validation/validation.pipe';
import { CallsService } from '../calls/calls.service';
import { CallLabel } from './call-label.entity';
import { CallLabelsRepository } from './call-labels.repository';
import { PlatformDetection, detectionReport } from './confusion-matrix';
import { AnswerDetectionQueryDto } from './dto/answer-detection-query.dto';
import { LabelCallDto } from './dto/label-call.dto';

/** Labels on ended calls, and the detection report measured against them (docs/answer-detection.md). */
@Injectable()
export class CallLabelsService {
  constructor(
    private readonly labels: CallLabelsRepository,
    private readonly calls: CallsService,
  ) {}

  /**
   * Only an ended call can be labelled: before that nobody has heard who answered. The call is found before the
   * body is judged, so another world's or organization's call is 404 whatever was sent.
   */
  async put(world: World, callId: string, body: unknown): Promise<CallLabel> {
    const call = await this.calls.get(world, callId);
    const dto = await validateBody(LabelCallDto, body);
    if (call.status !== 'ended') {
      throw new ApiError('INVALID_STATE', `Only ended calls can be labelled; this call is ${call.status}`);
    }
    return this.labels.put(world, callId, dto.answeredBy, dto.note ?? null);
  }

  async get(world: World, callId: string): Promise<CallLabel> {
    await this.calls.get(world, callId);
    const label = await this.labels.find(world, callId);
    if (!label) throw ApiError.notFound('Label');
    return label;
  }

  async report(world: World, query: AnswerDetectionQueryDto): Promise<PlatformDetection[]> {
    return detectionReport(await this.labels.countLabelled(world, query));
  }
}
