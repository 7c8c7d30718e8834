import csv, collections, json, sys
lines=open('ncu.csv').read().splitlines()
launches=[l.split()[1:] for l in lines if l.startswith('LAUNCH')]
rows=list(csv.reader([l for l in lines if l.startswith('"')]))
hdr=rows[0]; rows=rows[1:]
iid=hdr.index('ID'); im=hdr.index('Metric Name'); iv=hdr.index('Metric Value')
data=collections.defaultdict(dict)
for r in rows:
    try: data[int(r[iid])][r[im]]=float(r[iv].replace(',',''))
    except: pass
print(len(launches), len(data), file=sys.stderr)
out=[]
for i,(k,p) in enumerate(launches):
    out.append((k,p,{m:v for m,v in data[i].items() if v}))
json.dump(out,open('probe.json','w'),indent=0)
