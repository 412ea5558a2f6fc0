import { createBrowserRouter, Navigate } from 'react-router';
import { OrgLayout } from './pages/org-layout';
import { OrganizationsPage } from './pages/organizations';
import { OverviewPage } from './pages/overview';
import { CallsPage } from './pages/calls';
import { CallDetailPage } from './pages/call-detail';
import { ContactsPage } from './pages/contacts';
import { CasesPage } from './pages/cases';
import { CaseDetailPage } from './pages/case-detail';
import { AssistantsPage } from './pages/assistants';
import { ApiKeysPage } from './pages/api-keys';
import { PhoneNumbersPage } from './pages/phone-numbers';
import { NumberHealthPage } from './numbers/number-health';
import { DetectionReportPage } from './answers/detection-report';
import { WebhooksPage } from './pages/webhooks';
import { MessagingPage } from './pages/messaging';
import { UsagePage } from './pages/usage';
import { AutomationsPage } from './pages/automations';
import { ProfilePage } from './pages/profile';
import { CampaignsPage } from './campaigns/campaigns-page';
import { CampaignPage } from './campaigns/campaign-page';
import { DoNotCallPage } from './pages/do-not-call';
import { DestinationsPage } from './pages/destinations';
import { ToolsPage } from './tools/tools-page';
import { RequireSession, SignInPage } from './session';
import { Loading } from './ui';

export const router = createBrowserRouter(
  [
    { path: '/sign-in', element: <SignInPage /> },
    {
      element: <RequireSession />,
      children: [
        { index: true, element: <Navigate to="/orgs" replace /> },
        { path: 'orgs', element: <OrganizationsPage /> },
        {
          path: 'orgs/:orgId',
          element: <OrgLayout />,
          children: [
            { index: true, element: <OverviewPage /> },
            { path: 'calls', element: <CallsPage /> },
            { path: 'calls/:callId', element: <CallDetailPage /> },
            { path: 'contacts', element: <ContactsPage /> },
            {
              path: 'contacts/import',
              // Loaded when opened: the CSV parser is most of its weight. Shown meanwhile when it is the first page.
              HydrateFallback: Loading,
              lazy: async () => ({ Component: (await import('./contacts/import-contacts')).ImportContactsPage }),
            },
            { path: 'cases', element: <CasesPage /> },
            { path: 'cases/:caseId', element: <CaseDetailPage /> },
            { path: 'tools', element: <ToolsPage /> },
            { path: 'assistants', element: <AssistantsPage /> },
            { path: 'keys', element: <ApiKeysPage /> },
            { path: 'numbers', element: <PhoneNumbersPage /> },
            { path: 'numbers/:numberId/health', element: <NumberHealthPage /> },
            { path: 'answer-detection', element: <DetectionReportPage /> },
            { path: 'webhooks', element: <WebhooksPage /> },
            { path: 'messaging', element: <MessagingPage /> },
            { path: 'usage', element: <UsagePage /> },
            { path: 'automations', element: <AutomationsPage /> },
            { path: 'campaigns', element: <CampaignsPage /> },
            {
              path: 'campaigns/new',
              // Loaded when opened: the CSV parser and the phone-number rules are most of its weight.
              HydrateFallback: Loading,
              lazy: async () => ({ Component: (await import('./campaigns/new-campaign')).NewCampaignPage }),
            },
            { path: 'campaigns/:campaignId', element: <CampaignPage /> },
            { path: 'do-not-call', element: <DoNotCallPage /> },
            { path: 'destinations', element: <DestinationsPage /> },
            { path: 'profile', element: <ProfilePage /> },
          ],
        },
        { path: '*', element: <Navigate to="/orgs" replace /> },
      ],
    },
  ],
  { basename: '/console' },
);
