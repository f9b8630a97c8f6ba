#$ -m bea
#$ -hold_jid 1,2
#$ -v A=1,B
