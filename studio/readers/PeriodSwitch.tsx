import {Tab, TabList} from '@sanity/ui'
import {periods, type Period} from './statsTables.ts'

/** The panel the switch controls (the tool's tables); its id ties the tabs to it. */
export const periodPanelId = 'readers-period-panel'
export const periodTabId = (days: Period) => `readers-period-${days}`

/** The 7/30/90-day switch, as tabs (arrow keys move between them). */
export function PeriodSwitch({days, onChange}: {days: Period; onChange(days: Period): void}) {
  return (
    <TabList gap={2}>
      {periods.map((period) => (
        <Tab
          key={period}
          id={periodTabId(period)}
          aria-controls={periodPanelId}
          label={`${period} days`}
          selected={period === days}
          onClick={() => onChange(period)}
        />
      ))}
    </TabList>
  )
}
