import { CampaignsSection } from '../pages/campaigns-section';
import { useOrgId } from '../pages/org-layout';

export function CampaignsPage() {
  const orgId = useOrgId();
  return (
    <>
      <h1>Campaigns</h1>
      <CampaignsSection orgId={orgId} />
    </>
  );
}
